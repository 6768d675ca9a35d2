#!/usr/bin/env bash
# Rebuilds crates/mbs/assets/three/three.min.js, the part of three.js that the HTML
# animation uses (crates/mbs/assets/three/entry.js: renderer, geometries, lights,
# OrbitControls), as one minified script defining the global `THREE`. Needs node/npm
# and the npm registry; not run by the build or the tests (the result is committed).
set -euo pipefail
THREE_VERSION=0.187.0
ESBUILD_VERSION=0.27.7
here="$(cd "$(dirname "$0")/../.." && pwd)"
assets="$here/crates/mbs/assets/three"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
npm install --silent --no-save --prefix "$work" "three@$THREE_VERSION" "esbuild@$ESBUILD_VERSION"
cp "$assets/entry.js" "$work/entry.js"
"$work/node_modules/.bin/esbuild" entry.js --bundle --minify --format=iife \
    --global-name=THREE --legal-comments=none --outfile="$work/three.min.js"
cp "$work/three.min.js" "$assets/three.min.js"
cp "$work/node_modules/three/LICENSE" "$assets/LICENSE"
echo "$THREE_VERSION" > "$assets/VERSION"
echo "three.sh: wrote $assets/three.min.js ($(wc -c < "$assets/three.min.js") bytes) from three@$THREE_VERSION"
