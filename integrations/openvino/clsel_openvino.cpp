// clsel_openvino.cpp - an OpenVINO extension whose one op, clsel::Select, evaluates
// Select-1 (out = cond ? then : else) with clsel_runtime_run: an OpenCL GPU where the
// machine has one, else the CPU path on every core. It takes over ONNX Where (every opset
// that has it: the ONNX frontend maps each Where node to it) and reads back from IR as
// type "Select" of version "clsel". OpenVINO's own Select-1 nodes (in an IR file, or a
// model built in memory) are swapped for it after reading by the Python helper
// clsel.openvino.replace_selects: an op registered under Select-1's own name
// ("Select", "opset1") is taken by the CPU plugin for its own Select and compiled into
// its kernels (tried: its snippets passes rewrote the inputs and never called evaluate).
//
// OpenVINO calls evaluate from inference, constant folding and shape inference, from
// several threads and with shapes known only then: evaluate keeps no state but the
// process-wide runtime (made once, safe to share) and a call counter, and sets its
// output's shape itself.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

#include <openvino/core/extension.hpp>
#include <openvino/core/op_extension.hpp>
#include <openvino/frontend/onnx/extension/conversion.hpp>
#include <openvino/op/op.hpp>

#include "clsel.h"

namespace clsel_ov {

std::atomic<uint64_t> evaluations{0};

// The runtime every evaluate shares: AUTO's device, made on first use. nullptr where it
// could not be made (evaluate then reports failure and OpenVINO raises).
clsel_runtime *shared_runtime()
{
    static std::once_flag once;
    static clsel_runtime *runtime = nullptr;
    std::call_once(once, [] {
        if (clsel_runtime_create(CLSEL_DEVICE_AUTO, &runtime) != CLSEL_SUCCESS) runtime = nullptr;
    });
    return runtime;
}

// OpenVINO's element types that clsel moves, and clsel's name for each.
struct dtype_entry {
    ov::element::Type_t ov;
    clsel_dtype clsel;
};
const dtype_entry dtypes[] = {
    {ov::element::Type_t::boolean, CLSEL_BOOLEAN}, {ov::element::Type_t::u8, CLSEL_U8},
    {ov::element::Type_t::i8, CLSEL_I8},           {ov::element::Type_t::u16, CLSEL_U16},
    {ov::element::Type_t::i16, CLSEL_I16},         {ov::element::Type_t::f16, CLSEL_F16},
    {ov::element::Type_t::bf16, CLSEL_BF16},       {ov::element::Type_t::u32, CLSEL_U32},
    {ov::element::Type_t::i32, CLSEL_I32},         {ov::element::Type_t::f32, CLSEL_F32},
    {ov::element::Type_t::u64, CLSEL_U64},         {ov::element::Type_t::i64, CLSEL_I64},
    {ov::element::Type_t::f64, CLSEL_F64},
};

clsel_dtype to_clsel(const ov::element::Type &type)
{
    for (const dtype_entry &entry : dtypes)
        if (type == entry.ov) return entry.clsel;
    return CLSEL_DTYPE_INVALID;
}

clsel_shape to_clsel(const ov::Shape &shape)
{
    clsel_shape out{};
    out.rank = static_cast<int32_t>(shape.size()); // past CLSEL_MAX_RANK: clsel refuses it by rank
    for (size_t i = 0; i < shape.size() && i < CLSEL_MAX_RANK; ++i) out.dims[i] = static_cast<int64_t>(shape[i]);
    return out;
}

class Select : public ov::op::Op {
public:
    OPENVINO_OP("Select", "clsel");

    Select() = default;
    Select(const ov::Output<ov::Node> &cond, const ov::Output<ov::Node> &then_value,
           const ov::Output<ov::Node> &else_value,
           const ov::op::AutoBroadcastSpec &auto_broadcast = ov::op::AutoBroadcastType::NUMPY,
           const std::string &cond_broadcast = "bidirectional")
        : Op({cond, then_value, else_value}), m_auto_broadcast(auto_broadcast), m_cond_broadcast(cond_broadcast)
    {
        constructor_validate_and_infer_types();
    }

    // cond is boolean in a model; the CPU plugin hands custom ops its booleans as u8 (1
    // for true), which clsel reads as it does a u8 cond: nonzero is true.
    static bool cond_type_ok(const ov::element::Type &type)
    {
        return type.is_dynamic() || type == ov::element::boolean || type == ov::element::u8;
    }

    // As OpenVINO's Select-1: cond boolean, then and else one element type, the output
    // shape merged by the broadcast rule. numpy merges cond two ways, as OpenVINO's own
    // Select and ONNX Where do, unless the attribute cond_broadcast is "one-way" (the
    // Select-1 rule clsel applies by default): then cond must broadcast into the shape of
    // then and else and never enlarges it.
    void validate_and_infer_types() override
    {
        NODE_VALIDATION_CHECK(this, m_cond_broadcast == "bidirectional" || m_cond_broadcast == "one-way",
                              "clsel Select: cond_broadcast must be \"bidirectional\" or \"one-way\", not \"",
                              m_cond_broadcast, "\"");
        NODE_VALIDATION_CHECK(this, cond_type_ok(get_input_element_type(0)),
                              "clsel Select: cond must be boolean, not ", get_input_element_type(0));
        ov::element::Type type;
        NODE_VALIDATION_CHECK(this, ov::element::Type::merge(type, get_input_element_type(1), get_input_element_type(2)),
                              "clsel Select: then and else differ in element type (", get_input_element_type(1), ", ",
                              get_input_element_type(2), ")");
        ov::PartialShape shape = get_input_partial_shape(2);
        const auto kind = m_auto_broadcast.m_type;
        if (kind == ov::op::AutoBroadcastType::PDPD) {
            shape = get_input_partial_shape(1);
            NODE_VALIDATION_CHECK(this, ov::PartialShape::broadcast_merge_into(shape, get_input_partial_shape(2), m_auto_broadcast),
                                  "clsel Select: else does not broadcast into then (pdpd)");
        } else if (kind == ov::op::AutoBroadcastType::NONE) {
            NODE_VALIDATION_CHECK(this, ov::PartialShape::merge_into(shape, get_input_partial_shape(1)) &&
                                            ov::PartialShape::merge_into(shape, get_input_partial_shape(0)),
                                  "clsel Select: shapes differ (no broadcast)");
        } else {
            NODE_VALIDATION_CHECK(this, ov::PartialShape::broadcast_merge_into(shape, get_input_partial_shape(1), m_auto_broadcast),
                                  "clsel Select: then and else do not broadcast together");
        }
        if (kind != ov::op::AutoBroadcastType::NONE) {
            ov::PartialShape merged = shape;
            NODE_VALIDATION_CHECK(this, ov::PartialShape::broadcast_merge_into(merged, get_input_partial_shape(0), m_auto_broadcast),
                                  "clsel Select: cond does not broadcast with the values");
            NODE_VALIDATION_CHECK(this, !one_way() || merged.compatible(shape), "clsel Select: cond ",
                                  get_input_partial_shape(0), " would enlarge the values' shape ", shape,
                                  " (cond_broadcast \"one-way\")");
            if (!one_way()) shape = merged;
        }
        set_output_type(0, type, shape);
    }

    std::shared_ptr<ov::Node> clone_with_new_inputs(const ov::OutputVector &inputs) const override
    {
        check_new_args_count(this, inputs);
        return std::make_shared<Select>(inputs.at(0), inputs.at(1), inputs.at(2), m_auto_broadcast, m_cond_broadcast);
    }

    bool visit_attributes(ov::AttributeVisitor &visitor) override
    {
        visitor.on_attribute("auto_broadcast", m_auto_broadcast);
        visitor.on_attribute("cond_broadcast", m_cond_broadcast);
        return true;
    }

    bool has_evaluate() const override { return to_clsel(get_input_element_type(1)) != CLSEL_DTYPE_INVALID; }

    bool evaluate(ov::TensorVector &outputs, const ov::TensorVector &inputs) const override
    {
        const clsel_dtype dtype = to_clsel(inputs[1].get_element_type());
        clsel_runtime *runtime = shared_runtime();
        if (dtype == CLSEL_DTYPE_INVALID || !runtime || !cond_type_ok(inputs[0].get_element_type())) return false;
        const clsel_shape shapes[3] = {to_clsel(inputs[0].get_shape()), to_clsel(inputs[1].get_shape()),
                                       to_clsel(inputs[2].get_shape())};
        clsel_attrs attrs = clsel_attrs_default();
        const auto kind = m_auto_broadcast.m_type;
        attrs.broadcast = kind == ov::op::AutoBroadcastType::PDPD   ? CLSEL_BROADCAST_PDPD
                          : kind == ov::op::AutoBroadcastType::NONE ? CLSEL_BROADCAST_NONE
                                                                    : CLSEL_BROADCAST_NUMPY;
        attrs.axis = m_auto_broadcast.m_axis;
        attrs.cond_broadcast = one_way() ? CLSEL_COND_ONE_WAY : CLSEL_COND_BIDIRECTIONAL;
        clsel_plan *plan = nullptr;
        if (clsel_plan_create(dtype, &shapes[0], &shapes[1], &shapes[2], &attrs, &plan) != CLSEL_SUCCESS) return false;
        const clsel_shape *out_shape = clsel_plan_output_shape(plan);
        const ov::Shape shape(out_shape->dims, out_shape->dims + out_shape->rank);
        if (outputs[0].get_shape() != shape) outputs[0].set_shape(shape); // the plugin's memory where it gave some
        const clsel_status status = clsel_runtime_run(runtime, plan, inputs[0].data(), inputs[1].data(),
                                                      inputs[2].data(), outputs[0].data());
        clsel_plan_destroy(plan);
        if (status != CLSEL_SUCCESS) return false;
        evaluations.fetch_add(1, std::memory_order_relaxed);
        return true;
    }

    const ov::op::AutoBroadcastSpec &get_auto_broadcast() const { return m_auto_broadcast; }
    bool one_way() const { return m_cond_broadcast == "one-way"; }

    // Bounds, for OpenVINO's shape and value propagation (a Select of shape arithmetic
    // on dynamic shapes): where cond's value is known, each bound is the Select of the
    // inputs' bounds. Without them a model whose Where feeds a shape keeps that shape
    // dynamic where OpenVINO's own Select would have resolved it.
    bool evaluate_lower(ov::TensorVector &outputs) const override { return evaluate_bound(outputs, false); }
    bool evaluate_upper(ov::TensorVector &outputs) const override { return evaluate_bound(outputs, true); }

private:
    bool evaluate_bound(ov::TensorVector &outputs, bool upper) const
    {
        if (!get_input_tensor(0).has_and_set_bound()) return false;
        ov::TensorVector bounds;
        for (size_t i = 0; i < 3; ++i) {
            const ov::descriptor::Tensor &input = get_input_tensor(i);
            const ov::Tensor &bound = upper ? input.get_upper_value() : input.get_lower_value();
            if (!bound) return false;
            bounds.push_back(bound);
        }
        return evaluate(outputs, bounds);
    }

    ov::op::AutoBroadcastSpec m_auto_broadcast{ov::op::AutoBroadcastType::NUMPY};
    std::string m_cond_broadcast{"bidirectional"};
};

} // namespace clsel_ov

// How many evaluations clsel ran in this process (tests check that every Where went
// through clsel; ctypes reaches it through the same loaded library).
OPENVINO_EXTENSION_C_API uint64_t clsel_openvino_evaluations(void)
{
    return clsel_ov::evaluations.load(std::memory_order_relaxed);
}

// The version of clsel and of the OpenVINO release this extension was built against.
OPENVINO_EXTENSION_C_API const char *clsel_openvino_built_for(void) { return CLSEL_OPENVINO_BUILT_FOR; }

namespace clsel_ov {

// ONNX Where (opsets 9 and 16: same inputs, no attributes) as clsel's Select with numpy
// broadcasting, cond merged two ways as Where says.
ov::OutputVector convert_where(const ov::frontend::NodeContext &node)
{
    return {std::make_shared<Select>(node.get_input(0), node.get_input(1), node.get_input(2))->output(0)};
}

} // namespace clsel_ov

OPENVINO_CREATE_EXTENSIONS(std::vector<ov::Extension::Ptr>(
    {std::make_shared<ov::OpExtension<clsel_ov::Select>>(),
     std::make_shared<ov::frontend::onnx::ConversionExtension>("Where", clsel_ov::convert_where)}));
