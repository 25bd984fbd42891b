#!/bin/sh
# install_test.sh BUILD_DIR SOURCE_DIR - installs the built clsel into a scratch prefix,
# runs the installed tool with no library path set (it finds the installed library through
# its RPATH), then builds and runs a consumer through find_package(clsel) (shared and
# static) and through pkg-config.
set -eu
build=$1
source=$2
work="$build/install-test"
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
if [ -x "$work/prefix/bin/clsel" ]; then
  env -u LD_LIBRARY_PATH "$work/prefix/bin/clsel" demo --device cpu >/dev/null
fi
cmake -S "$source/tests/system/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
"$work/consumer/consumer"
"$work/consumer/consumer_static"
pc_dir=$(dirname "$(find "$work/prefix" -name clsel.pc | head -n 1)")
export PKG_CONFIG_PATH="$pc_dir"
# shellcheck disable=SC2046
cc -std=c11 "$source/tests/system/consumer/consumer.c" $(pkg-config --cflags --libs clsel) -o "$work/pkg_consumer"
LD_LIBRARY_PATH=$(pkg-config --variable=libdir clsel) "$work/pkg_consumer"
echo "install_test: find_package (shared, static) and pkg-config consumers work"
