#!/bin/bash
# Copyright (c) 2026, nio-uring contributors. All rights reserved.
# Makes a copy of a JDK image whose libnio.so is built with AddressSanitizer, to run the stress
# harness (or anything else) with ASan watching libnio's native code:
#   test/stress/asan-libnio.sh TREE JDK OUT
#   make stress JDK=OUT/jdk DURATION=2m MODE=all
# TREE is the assembled tree that built JDK (build/src/patched after `make`): the compile command
# lines OpenJDK's build left in TREE/build/release/support/native/java.base/libnio/*.o.cmdline are
# replayed with -fsanitize=address. OUT/jdk/bin/java is a wrapper that preloads libasan with the
# options a JVM needs (HotSpot handles SIGSEGV itself; LeakSanitizer would report the VM's own
# allocations, so it is off). Only libnio is instrumented; any report names libnio frames.
set -euo pipefail
tree=$(cd "$1" && pwd) jdk=$2 out=$3
objdir=$tree/build/release/support/native/java.base/libnio
libasan=$(gcc -print-file-name=libasan.so)
[ -e "$libasan" ] || { echo "asan-libnio.sh: no libasan (install gcc's libasan)" >&2; exit 2; }
ls "$objdir"/*.o.cmdline > /dev/null || exit 2
mkdir -p "$out/obj"
out=$(cd "$out" && pwd)
for c in "$objdir"/*.o.cmdline; do
    o=$(basename "$c" .cmdline)
    cmd=$(sed -e 's#/usr/bin/ccache ##' -e 's#-MMD -MF [^ ]* ##' -e 's#-fpch-preprocess ##' \
              -e 's#-O[23s] #-O1 #' \
              -e "s#-c -o [^ ]*\.o #-fsanitize=address -fno-omit-frame-pointer -g -c -o $out/obj/$o #" "$c")
    bash -c "$cmd"
done
# link as OpenJDK does (see BUILD_LIBNIO_run_ld.cmdline), against the image's own libjava/libnet
ldline=$(cat "$objdir/BUILD_LIBNIO_run_ld.cmdline")
extra=$(grep -o '/[^ ]*liburing.a.*' <<< "$ldline" || true)
rm -rf "$out/jdk"
cp -aL "$jdk" "$out/jdk"
gcc -fsanitize=address -Wl,-z,defs -Wl,-z,relro -Wl,-z,now -Wl,--no-as-needed -m64 -shared \
    -L"$out/jdk/lib" -Wl,-rpath,\$ORIGIN -Wl,-soname=libnio.so -o "$out/jdk/lib/libnio.so" \
    "$out"/obj/*.o -ljava -lnet -ldl -lpthread $extra
mv "$out/jdk/bin/java" "$out/jdk/bin/java.real"
cat > "$out/jdk/bin/java" <<WRAP
#!/bin/bash
export ASAN_OPTIONS=\${ASAN_OPTIONS:-detect_leaks=0:handle_segv=0:handle_sigbus=0:handle_sigill=0:handle_sigfpe=0:allow_user_segv_handler=1:use_sigaltstack=0:detect_stack_use_after_return=0:halt_on_error=1}
export LD_PRELOAD=$libasan\${LD_PRELOAD:+:\$LD_PRELOAD}
exec "\$(dirname "\$0")/java.real" "\$@"
WRAP
chmod +x "$out/jdk/bin/java"
"$out/jdk/bin/java" -version
echo "ASan libnio JDK: $out/jdk"
