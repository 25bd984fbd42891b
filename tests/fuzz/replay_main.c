/* replay_main.c - runs a harness on files and folders of inputs without libFuzzer: the
 * seed corpus and every crash ever found, as regression tests in the normal build
 * (ctest fuzz_replay_*, also under ASan and UBSan in CI).
 *
 *   fuzz_replay_NAME FILE_OR_DIR... */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return 1;
    }
    unsigned char *data = NULL;
    size_t size = 0, cap = 0, got;
    do {
        if (size == cap) {
            cap = cap ? cap * 2 : 4096;
            unsigned char *grown = realloc(data, cap);
            if (!grown) {
                free(data);
                fclose(f);
                return 1;
            }
            data = grown;
        }
        got = fread(data + size, 1, cap - size, f);
        size += got;
    } while (got > 0);
    fclose(f);
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

int main(int argc, char **argv)
{
    int files = 0, failed = 0;
    for (int i = 1; i < argc; ++i) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "%s: no such file or folder\n", argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            failed |= run_file(argv[i]);
            ++files;
            continue;
        }
        DIR *dir = opendir(argv[i]);
        if (!dir)
            return 1;
        for (struct dirent *d; (d = readdir(dir));) {
            if (d->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], d->d_name);
            failed |= run_file(path);
            ++files;
        }
        closedir(dir);
    }
    printf("replayed %d inputs\n", files);
    return failed || files == 0;
}
