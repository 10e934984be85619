# Renders ERB snippets with Ruby's own ERB (trim mode '-', as Puppet's
# template() does) for pverify's tests/erb.rs.
#
# Usage: ruby xtask/ruby/erb_oracle.rb SNIPPETS VARS.json  -> JSON on stdout
# SNIPPETS: sections "-- name --" followed by the template text.
# Each template sees VARS as instance variables, and `scope` as a small
# stand-in for Puppet's scope (lookups in VARS, two functions).
require 'erb'
require 'json'
require 'yaml' # Puppet loads Psych: templates may call to_yaml

snippets_file, vars_file = ARGV
vars = JSON.parse(File.read(vars_file))

class FakeScope
  def initialize(vars)
    @vars = vars
  end

  def [](name)
    @vars[name.sub(/\A::/, '')]
  end

  def lookupvar(name)
    self[name]
  end

  def call_function(name, args)
    case name
    when 'join' then args[0].join(args[1])
    when 'upcase' then args[0].upcase
    else raise ArgumentError, "Unknown function '#{name}'"
    end
  end

  def function_upcase(args)
    call_function('upcase', args)
  end
end

class Wrapper
  def initialize(vars)
    vars.each { |k, v| instance_variable_set("@#{k}", v) }
    @__scope = FakeScope.new(vars)
  end

  def scope
    @__scope
  end

  def has_variable?(name)
    instance_variable_defined?("@#{name}")
  end

  def get_binding
    binding
  end
end

out = {}
name = nil
text = +''
sections = []
File.read(snippets_file).each_line do |line|
  if (m = line.match(/\A-- (.+) --\n\z/))
    sections << [name, text] if name
    name = m[1]
    text = +''
  else
    text << line
  end
end
sections << [name, text] if name

sections.each do |n, t|
  begin
    erb = ERB.new(t, trim_mode: '-')
    out[n] = erb.result(Wrapper.new(vars).get_binding)
  rescue Exception => e
    out[n] = { 'error' => "#{e.class}: #{e.message.lines.first.to_s.strip}" }
  end
end
puts JSON.pretty_generate(out)
