# Ruby's own answers for json_parse.tsv, the table tests/json_parse.rs
# holds pverify's JSON.parse to.
#
#   ruby json_parse.rb < inputs        # one hex input a line: print answers
#   ruby json_parse.rb --check TABLE   # exit 1 unless this Ruby still gives
#                                      # the table's answers (column 2 on
#                                      # Ruby 3.1, column 3 on Ruby 3.3)
require 'json'

def canon(v)
  case v
  when nil then "nil"
  when true, false then v.to_s
  when Integer then "i#{v}"
  when Float then "f#{[v].pack('G').unpack1('H*')}"
  when String then "s#{v.b.unpack1('H*')}"
  when Array then "[" + v.map { |x| canon(x) }.join(",") + "]"
  when Hash then "{" + v.map { |k, x| canon(k) + ":" + canon(x) }.join(",") + "}"
  else "?#{v.class}"
  end
end

def answer(hex)
  "ok " + canon(JSON.parse([hex].pack('H*').force_encoding('UTF-8')))
rescue JSON::ParserError => e
  "#{e.class} #{e.message.b.unpack1('H*')}"
end

if ARGV[0] == '--check'
  column = RUBY_VERSION.start_with?('3.1') ? 1 : 2
  rows = File.readlines(ARGV[1], chomp: true).reject { |l| l.start_with?('#') }
  wrong = rows.map { |l| l.split("\t") }.reject { |r| answer(r[0]) == r[column] }
  wrong.first(5).each { |r| warn "#{[r[0]].pack('H*').inspect}: #{answer(r[0])}, table #{r[column]}" }
  puts "json_parse.tsv on Ruby #{RUBY_VERSION} (json #{JSON::VERSION}): #{rows.size - wrong.size} of #{rows.size} agree"
  exit(wrong.empty? ? 0 : 1)
end
STDIN.each_line { |l| puts answer(l.strip) }
