#!/bin/sh
# Seeds fuzz/corpus/TARGET from Debian's Puppet modules (/usr/share/puppet/modules,
# installed by `cargo xtask corpus --install-only`) and the bundled fact sets.
# The corpus is not committed (fuzz/.gitignore): run this before fuzzing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
modules=${1:-/usr/share/puppet/modules}
corpus=$here/corpus
[ -d "$modules" ] || { echo "seed-corpus.sh: $modules: no such directory" >&2; exit 1; }
rm -rf "$corpus"
mkdir -p "$corpus/parse" "$corpus/compile" "$corpus/hiera_yaml" \
  "$corpus/hiera_interpolation" "$corpus/facts" "$corpus/erb" "$corpus/epp" \
  "$corpus/ruby_function"

# Each file is named after its path, so seeds from different modules never clash.
copy() { # copy FILE DIR
  cp "$1" "$2/$(echo "$1" | sed 's|^/||; s|/|_|g')"
}

find -L "$modules" -name '*.pp' -type f -size -64k | sort | while read -r f; do
  copy "$f" "$corpus/parse"
done
# The compiler runs each seed as site.pp: the smaller manifests are enough.
find -L "$modules" -name '*.pp' -type f -size -4k | sort | while read -r f; do
  copy "$f" "$corpus/compile"
done
find -L "$modules" \( -name '*.yaml' -o -name '*.yml' \) -type f -size -64k | sort |
  while read -r f; do copy "$f" "$corpus/hiera_yaml"; done
# Interpolation seeds: every distinct string holding %{...} in the modules' YAML.
i=0
find -L "$modules" \( -name '*.yaml' -o -name '*.yml' -o -name '*.pp' -o -name '*.erb' \) -type f |
  sort | xargs grep -ho '%{[^}]*}[^"'"'"']*' 2>/dev/null | sort -u | head -2000 |
  while IFS= read -r s; do
    i=$((i + 1))
    printf '%s' "$s" > "$corpus/hiera_interpolation/seed-$i"
  done
for f in "$here"/../tests/fixtures/factsets/* "$here"/../../shared/factsets/*/*.facts /work/shared/factsets/*/*.facts; do
  [ -f "$f" ] && copy "$f" "$corpus/facts"
done
find -L "$modules" -name '*.json' -type f -size -64k | sort | head -500 |
  while read -r f; do copy "$f" "$corpus/facts"; done
find -L "$modules" -name '*.erb' -type f -size -64k | sort |
  while read -r f; do copy "$f" "$corpus/erb"; done
find -L "$modules" -name '*.epp' -type f -size -64k | sort |
  while read -r f; do copy "$f" "$corpus/epp"; done
find -L "$modules" -path '*/lib/puppet/*functions/*.rb' -type f -size -64k | sort |
  while read -r f; do copy "$f" "$corpus/ruby_function"; done
for d in "$corpus"/*; do echo "$(ls "$d" | wc -l) seeds in $d"; done
