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
# Hostile seeds (docs/safety.md, tests/limits.rs): deep nesting, alias
# bombs, runaway Ruby loops, invalid UTF-8, misspelt configuration keys.
deep() { # deep N OPEN CLOSE: N openings then N closings
  awk -v n="$1" -v o="$2" -v c="$3" 'BEGIN { for (i = 0; i < n; i++) printf "%s", o; for (i = 0; i < n; i++) printf "%s", c; print "" }'
}
printf '$x = Integer[1, 100000].reduce([]) |$m, $i| { [$m] }\nnotice(type($x))\nnotify { a: message => $x }\n' \
  > "$corpus/compile/hostile-deep-reduce.pp"
printf '$x = Integer[1, 30000].reduce([]) |$m, $i| { [$m] }\nnotice(inline_template("<%%= @x.to_yaml.length %%> <%%= @x.inspect.length %%> <%%= @x == @x %%>"))\n' \
  > "$corpus/compile/hostile-deep-erb.pp"
printf 'notice(inline_template("<%%= (\\"x\\" * 2000000).length %%> <%% (1..10000000000).each { } %%>"))\n' \
  > "$corpus/compile/hostile-erb-caps.pp"
# Dropped deep (values/drop.rs, template/erb/drop.rs): hashes, Sensitive
# keys and types 200,000 levels deep, and the Ruby copy of deep data.
printf '$h = Integer[1, 200000].reduce({}) |$m, $i| { { k => $m, Sensitive($m) => [$m] } }\n$t = Integer[1, 200000].reduce(Integer) |$m, $i| { Optional[Array[$m]] }\n$s = Integer[1, 200000].reduce(1) |$m, $i| { Sensitive($m) }\nnotice(type($h) =~ $t)\n' \
  > "$corpus/compile/hostile-deep-drop.pp"
printf '$x = Integer[1, 200000].reduce([]) |$m, $i| { [$m, {a => $m}] }\nnotice(inline_template("<%%= @x.flatten.length %%> <%% y = @x; 1000.times { y = [y, y] } %%><%%= (1..200000).to_a.length %%>"))\n' \
  > "$corpus/compile/hostile-deep-drop-erb.pp"
# Shared data written by a template once per path (the Ruby copies' to_yaml).
printf '$x = Integer[1, 60].reduce([]) |$m, $i| { [$m, {a => $m}] }\nnotice(inline_template("<%%= @x.to_yaml.length %%>"))\n' \
  > "$corpus/compile/hostile-erb-yaml-shared.pp"
# A template's own data sharing its parts at every level, walked once per
# path: inspect grew one string to the machine's memory.
printf 'notice(inline_template("<%% y = [1]; z = [1]; 100.times { y = [y, y]; z = [z, z] } %%><%%= y.inspect.length %%> <%%= y.flatten.length %%> <%%= y == z %%> <%%= [y, z].sort.length %%>"))\n' \
  > "$corpus/compile/hostile-erb-shared-walks.pp"
# Types and aliases as deep as data (a 2,000,000-deep type as a hash key
# aborted the run), recursive aliases, binary Ruby Strings beside text.
printf '$d = Integer[1, 2000000].reduce([]) |$m, $i| { [$m] }\ntype Tree = Variant[Integer, Array[Tree]]\nnotice({ type($d) => 1 })\nnotice($d =~ Tree)\nnotice($d =~ Data)\nnotice([$d].flatten)\n' \
  > "$corpus/compile/hostile-deep-types.pp"
printf '$b = inline_template("<%%= Base64.decode64(\047/0E=\047) %%>")\nnotify { a: message => [$b, "x${b}", { k => $b }] }\nnotice("\u00e9${b}")\n' \
  > "$corpus/compile/hostile-binary-strings.pp"
{ printf 'x: '; deep 5000 '[' ']'; } > "$corpus/hiera_yaml/hostile-deep-flow.yaml"
{
  # An alias chain past Puppet's stack (lookup/interpolation.rb) and a loop.
  for i in $(seq 0 199); do printf 'k%s: "%%{alias(\047k%s\047)}"\n' $i $((i + 1)); done
  printf 'k200: end\nloop_a: "%%{alias(\047loop_b\047)}"\nloop_b: "%%{alias(\047loop_a\047)}"\n'
} > "$corpus/hiera_yaml/hostile-alias-chain.yaml"
{
  printf 'a: &a ["x","x","x","x","x","x","x","x","x","x"]\n'
  prev=a
  for n in b c d e f g h i; do
    printf '%s: &%s [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n' $n $n $prev $prev $prev $prev $prev $prev $prev $prev $prev $prev
    prev=$n
  done
} > "$corpus/hiera_yaml/hostile-billion-laughs.yaml"
printf -- '---\nversion: 5\nhierachy:\n  - name: c\n    pth: x\n' > "$corpus/hiera_yaml/hostile-unknown-keys.yaml"
printf '%%{alias("k")}%%{lookup("k")}%%{hiera("k")}' > "$corpus/hiera_interpolation/hostile-self-alias"
printf '<%% x = []; 30000.times { x = [x] } %%><%%= x.to_yaml.length %%><%%= x.inspect.length %%><%%= x.to_json %%>\n' \
  > "$corpus/erb/hostile-deep-loop.erb"
printf '<%%= ("ab" * 40000000).length %%><%%= Array.new(100000000).length %%><%%= (1..100000000000).to_a.length %%>\n' \
  > "$corpus/erb/hostile-caps.erb"
printf 'a\377\376<%%= 1 %%>\n' > "$corpus/erb/hostile-invalid-utf8.erb"
# Deep data as a hash key (Value's Hash and ==, the Ruby subset's ==), a
# Ruby Range handed to Puppet (iterated, printed, in a catalog), and bytes
# that are not UTF-8 in a Hiera data file and an EPP template.
printf '$x = Integer[1, 100000].reduce([]) |$m, $i| { [$m] }\n$y = Integer[1, 100000].reduce([]) |$m, $i| { [$m] }\n$h = { $x => 1 }\nnotice($h[$y], $x == $y, [$x] == [$y], { $y => 1 } == $h)\nnotice(inline_template("<%% h = { @x => 1 } %%><%%= h[@y] %%>"))\n' \
  > "$corpus/compile/hostile-deep-hash-key.pp"
printf 'Puppet::Functions.create_function(:%sm::f%s) do\n  def f(*args)\n    [(1..100000000000), (5...3), (1..200000)]\n  end\nend\n' "'" "'" \
  > "$corpus/ruby_function/hostile-range.rb"
printf -- '---\nok: 1\na: "x\377y"\nb: "\342\202"\n' > "$corpus/hiera_yaml/hostile-invalid-utf8.yaml"
printf 'a\377\376<%%= 1 %%>\n' > "$corpus/epp/hostile-invalid-utf8.epp"
# JSON as Ruby's json reads it (json_data): comments, escapes, surrogates,
# bad bytes in and out of strings, nesting past its limit.
printf '/* c */ {"a": "x\\q\\ud83d\\ude00\\ud800zz\377", // c\n "b": [1, 1.5e, -0, 1E+2], "c": NaN}\n' \
  > "$corpus/hiera_yaml/hostile-ruby-json.json"
{ deep 150 '[' ']' | tr -d '\n'; } > "$corpus/hiera_yaml/hostile-deep.json"
{ printf '{"name": "n", "values": {"x": '; deep 3000 '[' ']' | tr -d '\n'; printf '}}\n'; } > "$corpus/facts/hostile-deep.json"

for d in "$corpus"/*; do echo "$(ls "$d" | wc -l) seeds in $d"; done
