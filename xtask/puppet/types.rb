# frozen_string_literal: false
#
# pverify's resource-type oracle: loads Puppet 7.23 and prints, as one JSON
# object, what Ruby makes of each resource type named on stdin (one JSON
# request {"modulepath": [DIR...], "types": [NAME...]}): its parameters,
# properties, key attributes, isomorphism and title patterns, or the error
# loading it. Module types are found as Puppet's autoloader finds them: the
# `lib` directories of the modules on the modulepath are on the load path.
# This is our driver script; it only calls Puppet's public Ruby API.

require 'json'
require 'tmpdir'
require 'puppet'

request = JSON.parse($stdin.read)
tmp = Dir.mktmpdir('pverify-types-')
Puppet.initialize_settings(['--confdir', File.join(tmp, 'c'), '--vardir', File.join(tmp, 'v'),
                            '--codedir', File.join(tmp, 'cd')])
request['modulepath'].reverse_each do |dir|
  Dir.glob(File.join(dir, '*', 'lib')).sort.reverse_each { |lib| $LOAD_PATH.unshift(lib) }
end
out = {}
request['types'].each do |name|
  begin
    t = Puppet::Type.type(name.to_sym)
    if t.nil?
      out[name] = { 'error' => 'not found' }
      next
    end
    patterns = t.title_patterns.map { |re, fields| [re.source, fields.map { |f| f[0].to_s }] }
    out[name] = {
      'parameters' => t.parameters.map(&:to_s),
      'properties' => t.validproperties.map(&:to_s),
      'key_attributes' => t.key_attributes.map(&:to_s),
      'isomorphic' => t.isomorphic?,
      'title_patterns' => patterns,
    }
  rescue Exception => e # rubocop:disable Lint/RescueException
    out[name] = { 'error' => "#{e.class}: #{e.message}" }
  end
end
puts JSON.generate(out)
