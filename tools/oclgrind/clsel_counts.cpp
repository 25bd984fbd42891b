// clsel_counts.cpp - an Oclgrind plugin (OCLGRIND_PLUGINS=.../libclsel_oclgrind_counts.so) that
// counts, per kernel launch, the instructions the work-items executed (LLVM IR, calls to builtins
// as one each, as `oclgrind --inst-counts` counts them) and every load and store by address space
// and width: the dynamic measure of a kernel's cost per output byte that `clsel bench --model`
// reads (docs/gpu_model.md).
//
// Oclgrind's own --inst-counts prints the instruction histogram to stdout but only the total bytes
// of the plain loads and stores, not their widths, and leaves out what builtins such as vload16
// access; the memoryLoad and memoryStore events seen here carry every access with its size.
//
// Each launch appends one line of JSON to the file that CLSEL_OCLGRIND_COUNTS names:
//   {"work_items": 1024, "work_group": 256, "instructions": 123456,
//    "global_load": [[16, 300], [1, 20]], "global_store": [[16, 256]],
//    "local_load": [], "local_store": []}
// where each [width, count] pair counts the accesses of that many bytes. (The kernel's name is not
// written: Oclgrind's Kernel.h needs LLVM's headers, which its Debian package does not depend on.)
#include <oclgrind/Context.h>
#include <oclgrind/KernelInvocation.h>
#include <oclgrind/Memory.h>
#include <oclgrind/Plugin.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>

namespace
{

// Accesses by width, for one address space and direction.
using widths = std::map<size_t, size_t>;

struct counts {
    size_t instructions = 0;
    widths global_load, global_store, local_load, local_store;

    void add(const counts &other)
    {
        instructions += other.instructions;
        merge(global_load, other.global_load);
        merge(global_store, other.global_store);
        merge(local_load, other.local_load);
        merge(local_store, other.local_store);
    }

  private:
    static void merge(widths &into, const widths &from)
    {
        for (const auto &entry : from)
            into[entry.first] += entry.second;
    }
};

// Oclgrind runs work-groups on several threads: each counts into its own and adds
// that to the launch's total when its work-group completes.
thread_local counts worker;

void write_widths(FILE *f, const char *name, const widths &w)
{
    std::fprintf(f, ", \"%s\": [", name);
    const char *separator = "";
    for (const auto &entry : w) {
        std::fprintf(f, "%s[%zu, %zu]", separator, entry.first, entry.second);
        separator = ", ";
    }
    std::fprintf(f, "]");
}

class clsel_counts : public oclgrind::Plugin
{
  public:
    explicit clsel_counts(const oclgrind::Context *context) : Plugin(context)
    {
    }

    void instructionExecuted(const oclgrind::WorkItem *, const llvm::Instruction *,
                             const oclgrind::TypedValue &) override
    {
        ++worker.instructions;
    }

    void memoryLoad(const oclgrind::Memory *memory, const oclgrind::WorkItem *, size_t,
                    size_t size) override
    {
        count(memory, size, worker.global_load, worker.local_load);
    }

    void memoryStore(const oclgrind::Memory *memory, const oclgrind::WorkItem *, size_t,
                     size_t size, const uint8_t *) override
    {
        count(memory, size, worker.global_store, worker.local_store);
    }

    void kernelBegin(const oclgrind::KernelInvocation *) override
    {
        std::lock_guard<std::mutex> hold(lock);
        launch = counts();
    }

    void workGroupBegin(const oclgrind::WorkGroup *) override
    {
        worker = counts();
    }

    void workGroupComplete(const oclgrind::WorkGroup *) override
    {
        std::lock_guard<std::mutex> hold(lock);
        launch.add(worker);
        worker = counts();
    }

    void kernelEnd(const oclgrind::KernelInvocation *invocation) override
    {
        const char *path = std::getenv("CLSEL_OCLGRIND_COUNTS");
        if (!path || !*path)
            return;
        std::lock_guard<std::mutex> hold(lock);
        FILE *f = std::fopen(path, "a");
        if (!f)
            return;
        const oclgrind::Size3 global = invocation->getGlobalSize(),
                              group = invocation->getLocalSize();
        std::fprintf(f, "{\"work_items\": %zu, \"work_group\": %zu, \"instructions\": %zu",
                     global.x * global.y * global.z, group.x * group.y * group.z,
                     launch.instructions);
        write_widths(f, "global_load", launch.global_load);
        write_widths(f, "global_store", launch.global_store);
        write_widths(f, "local_load", launch.local_load);
        write_widths(f, "local_store", launch.local_store);
        std::fprintf(f, "}\n");
        std::fclose(f);
    }

  private:
    static void count(const oclgrind::Memory *memory, size_t size, widths &global, widths &local)
    {
        const unsigned space = memory->getAddressSpace();
        if (space == oclgrind::AddrSpaceGlobal || space == oclgrind::AddrSpaceConstant)
            ++global[size];
        else if (space == oclgrind::AddrSpaceLocal)
            ++local[size];
    }

    std::mutex lock;
    counts launch;
};

clsel_counts *plugin = nullptr;

} // namespace

extern "C" void initializePlugins(oclgrind::Context *context)
{
    plugin = new clsel_counts(context);
    context->registerPlugin(plugin);
}

extern "C" void releasePlugins(oclgrind::Context *context)
{
    context->unregisterPlugin(plugin);
    delete plugin;
    plugin = nullptr;
}
