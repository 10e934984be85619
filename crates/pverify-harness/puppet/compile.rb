# frozen_string_literal: false
#
# pverify's catalog oracle: compiles nodes with the installed Puppet 7's own
# compiler, in one warm Ruby process, and prints one JSON line per node.
#
# This is our driver script; it only calls Puppet's public Ruby API.
#
# Request (JSON on stdin):
#
#   {"environmentpath": DIR, "environment": NAME,
#    "nodes": [{"name": CERTNAME, "facts": {...},
#               "trusted"?: {"extensions"?: {...}, "authenticated"?: ..., "external"?: {...}},
#               "classes"?: [..] | {class: {param: value}},
#               "parameters"?: {...},
#               "settings"?: {"strict_variables": true, ...},
#               "basemodulepath"?: [DIR...],
#               "exports"?: [PuppetDB resource...],
#               "environment_hiera_config"?: FILE,
#               "environmentpath"?: DIR, "environment"?: NAME,
#               "environment_timeout"?: "unlimited"}]}
#
# A node's "environmentpath"/"environment" override the request's, so many
# spec-suite cases (each with its own environment directory) compile in one
# process. Every node gets a fresh environment object (nothing one node loads
# is visible to the next) and its own copy of the settings it names: a
# server whose `environment_timeout` is 0, its default.
#
# "environment_timeout": "unlimited" (the benchmark's second Puppet ratio)
# is a server that caches its environments instead: the nodes asking for it
# share one `Puppet::Environments::Cached` loader per environmentpath and
# basemodulepath, made as `Puppet.base_context` makes a server's, with the
# setting `environment_timeout = unlimited`, so `Cached#entry` keeps each
# environment in a never-expiring entry. The environment object then keeps
# what Puppet keeps on it across compiles: its `known_resource_types` (the
# parsed site manifest and every class, define and node definition
# imported), its modules and settings; each compile still makes its own
# `Puppet::Pops::Loaders` (Puppet does, PUP-4461). A node's "settings" are
# then set around its compile but the cached environment is not remade.
#
# Reply (stdout): one line per node, in request order,
#
#   {"name", "status": "compiled"|"failed"|"unrepresentable",
#    "catalog"?: <to_data_hash>, "error"?: TEXT, "warnings": [TEXT...],
#    "millis": N}
#
# ("unrepresentable": the result held text that is not UTF-8; see reply_line.)
#
# `catalog` is `Puppet::Parser::Compiler.compile(node).to_data_hash`: the
# compiler already converts its catalog with `to_resource`, so this is the
# catalog (*) before the catalog indirection's `filter` (which drops exported
# resources before a catalog is sent to an agent). `error` is the exception's
# `to_s`, which is exactly the text `puppet catalog find` prints after
# "Error: " (checked on 7.23; for issue-based errors the compiler sets `node`,
# so the text ends in " (file: F, line: L, column: C) on node N").
# `warnings` are the messages logged at level warning during the compile, as
# the console would print them after "Warning: ".
#
# How the node is made, and how it compares with a real
# `puppet catalog find NAME --terminus compiler --facts_terminus yaml`
# (compared with that command on 7.23 for one node: the catalogs were equal
# except for the three points marked (*) below; see spec-suite/README.md):
#
# * ENC data first (`Puppet::Node.new(name, classes:, parameters:, environment:)`,
#   as the exec node terminus does), then `node.fact_merge(facts)` as the plain
#   and exec node termini do: facts become top-scope variables unless an ENC
#   parameter of the same name exists (Puppet warns once and keeps the ENC
#   value); `$environment` stays the node's environment.
# * (*) Then the server facts, as the compiler terminus's `add_node_data` does
#   (`node.add_server_facts`): `$serverversion`, `$servername`, `$serverip`
#   as top-scope variables and `$server_facts` (with `environment`). Puppet
#   reads servername/serverip from the server's own Facter; here they are
#   fixed (see SERVER_FACTS) so that catalogs do not depend on the machine.
# * (*) `$trusted` is what a server makes for an agent with a verified
#   certificate (`Puppet::Context::TrustedInformation.remote`):
#   authenticated 'remote', certname = the node name, extensions from the
#   request, hostname/domain split from the certname, external {}.
#   `puppet catalog find` run on the command line has no certificate and
#   gives authenticated 'local' and no extensions instead.
# * Facts are used exactly as given: an agent adds `clientcert`,
#   `clientversion`, `clientnoop` (and `agent_specified_environment`) to the
#   facts it uploads, so a case that wants them lists them in its facts.
# * basemodulepath is an empty directory unless the node names its own
#   (a control repo's `basemodulepath:`), and confdir/vardir/codedir are
#   temporary, so nothing installed on the machine (Debian's modules under
#   /usr/share/puppet/modules, a global hiera.yaml) leaks into a case.
# * Exported resources: storeconfigs' backend is `pverify_exports` (below),
#   a terminus answering the exported collectors' searches from the node's
#   "exports" (other nodes' resources as PuppetDB's /pdb/query/v4/resources
#   gives them) with the filtering of puppetdb-termini's
#   `Puppet::Resource::Puppetdb#search`, so Puppet's own ExportedCollector
#   collects them. A node collects only with the setting `storeconfigs: true`.

require 'json'
require 'tmpdir'
require 'fileutils'
require 'puppet'

SERVER_FACTS = {
  'serverversion' => nil, # Puppet.version, filled in below
  'servername' => 'puppet.example.com',
  'serverip' => '192.0.2.1',
}.freeze

# Collects log messages; a Puppet::Util::Log destination (Log.newdestination
# matches destinations by their class name).
class PverifyLogCollector
  attr_reader :messages

  def initialize
    @messages = []
  end

  def clear
    @messages = []
  end
end

Puppet::Util::Log.newdesttype :pverify_collector do
  match 'PverifyLogCollector'

  def initialize(collector)
    @collector = collector
  end

  def handle(msg)
    @collector.messages << msg
  end
end

# storeconfigs' backend: PuppetDB's answer to the exported collectors'
# searches, from the node's "exports" instead of a PuppetDB server. The
# search is puppetdb-termini's (`Puppet::Resource::Puppetdb#search`):
#   ['and', ['=', 'type', TYPE], ['=', 'exported', true],
#           ['not', ['=', 'certname', HOST]], FILTER]
# where the collector's query becomes FILTER: `tag == v` is
# ['=', 'tag', v.downcase], `title == v` is ['=', 'title', v], any other
# `name == v` is ['=', ['parameter', name], v] (PuppetDB: JSON containment,
# `parameters @> {name: v}`), `!=` wraps its `==` in 'not', `and`/`or` join.
# Each answer becomes a Puppet::Parser::Resource made as that terminus makes
# it: type, title, parameters and the collecting scope, no file, line or
# tags, and a collector_id of "certname|type|title".
class Puppet::Resource::PverifyExports < Puppet::Indirector::Code
  desc 'pverify: exported resources from a PuppetDB resources answer'

  class << self
    attr_accessor :resources
  end

  def search(request)
    type = request.key
    host = request.options[:host]
    filter = request.options[:filter]
    scope = request.options[:scope]
    # The filter as PuppetDB receives it: JSON.
    filter = JSON.parse(JSON.generate([filter]))[0] unless filter.nil?
    found = (self.class.resources || []).select do |res|
      res['type'] == type && res['exported'] == true && res['certname'] != host &&
        pdb_matches?(filter, res)
    end
    found.map do |res|
      params = (res['parameters'] || {}).map do |name, value|
        Puppet::Parser::Resource::Param.new(name: name, value: value)
      end
      t = res['type']
      unless t == 'class' || t == 'node'
        t = Puppet::Pops::Evaluator::Runtime3ResourceSupport.find_resource_type(scope, t)
      end
      resource = Puppet::Parser::Resource.new(t, res['title'], parameters: params, scope: scope)
      resource.collector_id = "#{res['certname']}|#{res['type']}|#{res['title']}"
      resource
    end
  end

  private

  def pdb_matches?(filter, res)
    return true if filter.nil?

    lhs, op, rhs = filter
    case op
    when '==' then pdb_predicate(lhs, rhs, res)
    when '!=' then !pdb_predicate(lhs, rhs, res)
    when 'and' then pdb_matches?(lhs, res) && pdb_matches?(rhs, res)
    when 'or' then pdb_matches?(lhs, res) || pdb_matches?(rhs, res)
    else raise Puppet::Error, "Operator #{op} in #{filter.inspect} not supported"
    end
  end

  def pdb_predicate(field, value, res)
    case field
    when 'tag' then (res['tags'] || []).include?(value.downcase)
    when 'title' then res['title'] == value
    else json_contains?(res['parameters'] || {}, { field => value })
    end
  end

  # PostgreSQL's jsonb `@>` below the top level.
  def json_contains?(have, want)
    case want
    when Hash
      have.is_a?(Hash) && want.all? { |k, v| have.key?(k) && json_contains?(have[k], v) }
    when Array
      have.is_a?(Array) && want.all? { |w| have.any? { |h| json_contains?(h, w) } }
    when Numeric
      have.is_a?(Numeric) && have == want
    else
      have.class == want.class && have == want
    end
  end
end

def console_text(msg)
  str = msg.respond_to?(:multiline) ? msg.multiline : msg.to_s
  msg.source == 'Puppet' ? str : "#{msg.source}: #{str}"
end

# A control repo's `hiera_config:` (pverify.yaml) replaces the
# environment's hiera.yaml for a node ("environment_hiera_config"), its
# relative datadirs starting at the environment directory as if the file
# were there (onceover's test hiera.yaml). Puppet has no setting for that;
# these two hooks give the environment layer that file and root.
module PverifyEnvironmentHieraConfig
  def configuration_path(lookup_invocation)
    file = Thread.current[:pverify_environment_hiera_config]
    file ? Pathname.new(file) : super
  end
end

module PverifyHieraConfigRoot
  def initialize(config_root, config_path, loaded_config, owner)
    file = Thread.current[:pverify_environment_hiera_config]
    if file && config_path && config_path.to_s == file
      config_root = Pathname.new(Thread.current[:pverify_environment_dir])
    end
    super(config_root, config_path, loaded_config, owner)
  end
end

def main
  Puppet::Pops::Lookup::EnvironmentDataProvider.prepend(PverifyEnvironmentHieraConfig)
  Puppet::Pops::Lookup::HieraConfig.prepend(PverifyHieraConfigRoot)
  request = JSON.parse($stdin.read)
  tmp = Dir.mktmpdir('pverify-puppet-')
  begin
    base = File.join(tmp, 'basemodules')
    FileUtils.mkdir_p(base)
    default_envpath = request['environmentpath'] || File.join(tmp, 'environments')
    FileUtils.mkdir_p(default_envpath)
    Puppet.initialize_settings([
      '--confdir', File.join(tmp, 'confdir'),
      '--codedir', File.join(tmp, 'codedir'),
      '--vardir', File.join(tmp, 'vardir'),
      '--rundir', File.join(tmp, 'rundir'),
      '--logdir', File.join(tmp, 'logdir'),
      '--publicdir', File.join(tmp, 'publicdir'),
      '--environmentpath', default_envpath,
      '--basemodulepath', base,
    ])
    Puppet[:storeconfigs_backend] = 'pverify_exports'
    collector = PverifyLogCollector.new
    Puppet::Util::Log.newdestination(collector)
    Puppet::Util::Log.level = :warning
    server_facts = SERVER_FACTS.merge('serverversion' => Puppet.version.to_s)

    $stdout.sync = true
    (request['nodes'] || []).each do |spec|
      envpath = spec['environmentpath'] || default_envpath
      envname = spec['environment'] || request['environment'] || 'production'
      result = compile_node(spec, envpath, envname, base, server_facts, collector)
      $stdout.puts(reply_line(result))
    end
  ensure
    FileUtils.rm_rf(tmp)
  end
end

# One node's reply as a JSON line. A result holding text that is not UTF-8
# (bytes Puppet got from a decryption, say) cannot be JSON: that node's
# reply says so, and the other nodes' replies still follow.
def reply_line(result)
  JSON.generate(result)
rescue JSON::GeneratorError, Encoding::UndefinedConversionError => e
  JSON.generate(
    'name' => result['name'],
    'status' => 'unrepresentable',
    'error' => "Puppet's result holds text that is not UTF-8 (#{e.message.scrub})",
    'warnings' => [],
  )
end

def compile_node(spec, envpath, envname, base, server_facts, collector)
  name = spec['name']
  started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  collector.clear
  # Puppet warns about some things once per process; each node is a fresh run.
  Puppet.clear_deprecation_warnings
  Puppet::Util::Warnings.clear_warnings

  saved = {}
  result = { 'name' => name }
  begin
    Puppet::Resource::PverifyExports.resources = spec['exports'] || []
    (spec['settings'] || {}).each do |key, value|
      # A relative hiera_config names a file of the case's environment.
      if key == 'hiera_config' && !value.start_with?('/')
        value = File.join(envpath, envname, value)
      end
      saved[key.to_sym] = Puppet[key.to_sym]
      Puppet[key.to_sym] = value
    end
    # The node's basemodulepath: the setting `$basemodulepath` in
    # environment.conf stands for, and the global modulepath the loader
    # appends to an environment without a modulepath.
    basemodulepath = spec['basemodulepath'] || [base]
    cached = spec['environment_timeout'] == 'unlimited'
    if cached
      # A server's settings stay put from one catalog to the next (setting
      # one flushes every setting's cached value): set once, and kept.
      wanted = basemodulepath.join(File::PATH_SEPARATOR)
      Puppet[:basemodulepath] = wanted unless Puppet[:basemodulepath] == wanted
      Puppet[:environment_timeout] = 'unlimited' unless Puppet[:environment_timeout] == Float::INFINITY
    else
      saved[:basemodulepath] = Puppet[:basemodulepath] unless saved.key?(:basemodulepath)
      Puppet[:basemodulepath] = basemodulepath.join(File::PATH_SEPARATOR)
    end
    # An environment's settings (environment.conf) are read through
    # Puppet.lookup(:environments), so the loader must be in the context
    # before the environment is made. A new loader makes a new environment
    # object: nothing parsed for one node is reused for the next, unless the
    # node asks for a cached environment (see the top).
    loader = environment_loader(envpath, basemodulepath, cached)
    Puppet.override({ environments: loader }, 'pverify oracle: environments') do
      env = loader.get(envname)
      if env.nil?
        # What a server says when a node's environment does not exist
        # (`Puppet::Node#environment=`): the message names the
        # environmentpath setting.
        saved[:environmentpath] = Puppet[:environmentpath]
        Puppet[:environmentpath] = envpath
        raise Puppet::Environments::EnvironmentNotFound, envname
      end

      # Relative paths that Ruby code opens against the working directory
      # (hiera-eyaml's key files) name files of the environment, as when
      # Puppet runs from a control repo's root (onceover does).
      Thread.current[:pverify_environment_hiera_config] = spec['environment_hiera_config']
      Thread.current[:pverify_environment_dir] = File.join(envpath, envname)
      Dir.chdir(File.join(envpath, envname)) do
        Puppet.override({ current_environment: env }, 'pverify oracle: compile') do
          # As the catalog compiler terminus: the environment is guarded
          # against eviction while it compiles.
          loader.guard(env.name) if cached
          begin
            catalog = Puppet::Parser::Compiler.compile(make_node(spec, env, server_facts))
          ensure
            loader.unguard(env.name) if cached
          end
          result['status'] = 'compiled'
          result['catalog'] = catalog.to_data_hash
        end
      end
    end
  rescue Exception => e # rubocop:disable Lint/RescueException
    raise if e.is_a?(Interrupt) || e.is_a?(SystemExit) || e.is_a?(NoMemoryError)

    result['status'] = 'failed'
    result['error'] = e.to_s
  ensure
    Thread.current[:pverify_environment_hiera_config] = nil
    saved.each { |key, value| Puppet[key] = value }
  end
  result['warnings'] = collector.messages
                                .select { |m| m.level == :warning }
                                .map { |m| console_text(m) }
  result['millis'] = ((Process.clock_gettime(Process::CLOCK_MONOTONIC) - started) * 1000).round
  result
end

# The environments of `envpath`: a fresh loader (a fresh environment object
# per node), or with `cached` the one cached loader of that environmentpath
# and basemodulepath for the whole process, wrapped as a server wraps its
# (`Puppet.base_context`: `Cached.new(Combined.new(Directories...))`).
CACHED_ENVIRONMENTS = {}

def environment_loader(envpath, basemodulepath, cached)
  directories = -> { Puppet::Environments::Directories.new(envpath, basemodulepath) }
  return directories.call unless cached

  CACHED_ENVIRONMENTS[[envpath, basemodulepath]] ||=
    Puppet::Environments::Cached.new(Puppet::Environments::Combined.new(directories.call))
end

# The node as the server's node and catalog termini make it (see the top).
def make_node(spec, env, server_facts)
  name = spec['name']
  node = Puppet::Node.new(name,
                          environment: env,
                          classes: spec['classes'] || [],
                          parameters: spec['parameters'] || {})
  node.fact_merge(Puppet::Node::Facts.new(name, spec['facts'] || {}))
  node.add_server_facts(server_facts)
  trusted = spec['trusted'] || {}
  node.trusted_data = Puppet::Context::TrustedInformation.new(
    trusted.fetch('authenticated', 'remote'),
    trusted.fetch('certname', name),
    trusted['extensions'] || {},
    trusted['external'] || {}
  ).to_h
  node
end

main
