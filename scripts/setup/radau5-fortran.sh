#!/usr/bin/env bash
# Builds Hairer's Fortran RADAU5 (radau_decsol.f: RADAU5 with DECSOL, the code behind
# the IVP Test Set's RADAU5 figures) as a shared library for the peer
# xtask/peers/radau5_fortran_peer.py.
#
#   bash scripts/setup/radau5-fortran.sh   # then: python3 xtask/peers/radau5_fortran_peer.py
#
# The source comes from the PyPI sdist Assimulo-3.0.tar.gz (file
# assimulo/thirdparty/hairer/radau_decsol.f), fetched directly (pip cannot build its
# metadata) and checked against its sha256; nothing of it enters the repository.
# Idempotent: installs gfortran (Debian apt) only when missing, downloads only when
# the archive is absent or its hash is wrong, recompiles only when the library is
# older than the source. Output: target/peers/radau5/libradau5.so.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="$root/target/peers/radau5"
url="https://files.pythonhosted.org/packages/28/ef/4d8b15a0842410bb4ca8f500dadd5ff76fb3e34559f956a51c19b8a4912b/Assimulo-3.0.tar.gz"
sha="61cdca4562745078c966cc4fab44d8bc0db11a9e6856b45c470ac65c16af9e8a"
member="Assimulo-3.0/assimulo/thirdparty/hairer/radau_decsol.f"
mkdir -p "$dir"

if ! command -v gfortran >/dev/null; then
    echo "radau5-fortran: installing gfortran (apt-get)"
    if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -qq && $sudo apt-get install -y -qq gfortran
fi

tarball="$dir/Assimulo-3.0.tar.gz"
if [ "$(sha256sum "$tarball" 2>/dev/null | cut -d' ' -f1)" != "$sha" ]; then
    echo "radau5-fortran: downloading $url"
    curl -fsSL -o "$tarball.part" "$url"
    got="$(sha256sum "$tarball.part" | cut -d' ' -f1)"
    if [ "$got" != "$sha" ]; then
        rm -f "$tarball.part"
        echo "radau5-fortran: sha256 mismatch: got $got, expected $sha" >&2
        exit 1
    fi
    mv "$tarball.part" "$tarball"
fi

src="$dir/radau_decsol.f"
if [ ! -f "$src" ] || [ "$tarball" -nt "$src" ]; then
    tar -xzf "$tarball" -C "$dir" --strip-components=4 "$member"
    touch "$src"
fi

lib="$dir/libradau5.so"
if [ ! -f "$lib" ] || [ "$src" -nt "$lib" ]; then
    echo "radau5-fortran: compiling $(gfortran --version | head -1)"
    # -O2 -fPIC, no fast-math: the step sequence must be the reference's
    gfortran -O2 -fPIC -shared -std=legacy -o "$lib" "$src"
    gfortran --version | head -1 >"$dir/compiler.txt"
fi
echo "radau5-fortran: $lib ($(cat "$dir/compiler.txt"))"
