import SmartStackBase

/// `manifest.json` of a `replay` or `simulate` folder: what was run, on which inputs, by
/// which toolkit, and the files written, each with its size and FNV-1a 64, as a batch
/// manifest lists them (so `smartstack report` checks and prints the folder, and
/// `OutputClaim` knows which files are the toolkit's).
///
/// Keys in a fixed order: `toolkit`, `version`, `run`, `config_file` (null), `config_hash`
/// (FNV-1a 64 of the compact JSON of `config`), `config` (`arguments`: the command line
/// without the options that do not change results, `--out`, `--jobs`, `--quiet`,
/// `--overwrite`; `inputs`: each input file's `path`, `bytes` and `crc32`, its CRC-32 in 8
/// hex digits, `FileDigest`), `jobs`, `started`,
/// `finished`, `duration_s`, `files`.
public struct CommandManifest: Sendable {
  public var run: String
  public var config: JSONValue
  public var jobs: Int
  public var started: Instant
  public var finished: Instant
  public var durationSeconds: Double

  /// A manifest for `run` with `arguments` (all of them: those that do not change
  /// results are dropped here) reading `inputs`, each hashed here (`FileDigest`).
  ///
  /// - Throws: `InputFileError` for an input that cannot be read.
  public init(
    run: String, arguments: [String], inputs: [String], jobs: Int, started: Instant,
    finished: Instant, durationSeconds: Double
  ) throws {
    self.init(
      run: run, arguments: arguments, inputs: try inputs.map { try FileDigest(path: $0) }, jobs: jobs,
      started: started, finished: finished, durationSeconds: durationSeconds)
  }

  /// A manifest for `run` with `arguments` on inputs already hashed (`LogLoader` hashes
  /// what it reads): each listed with its path, size and hash, in the order given.
  public init(
    run: String, arguments: [String], inputs: [FileDigest], jobs: Int, started: Instant,
    finished: Instant, durationSeconds: Double
  ) {
    self.run = run
    let described = inputs.map {
      JSONNode([
        "path": .string($0.path), "bytes": .number(Double($0.bytes)), "crc32": .string($0.hexHash),
      ])
    }
    config = .object([
      JSONMember("arguments", .array(Self.resultArguments(arguments).map { JSONNode(.string($0)) })),
      JSONMember("inputs", .array(described)),
    ])
    self.jobs = jobs
    self.started = started
    self.finished = finished
    self.durationSeconds = durationSeconds
  }

  /// FNV-1a 64 (hex) of the compact JSON of `config`: equal for two runs of the same
  /// command on the same inputs with the same options.
  public var configHash: String { FNV1a.hexHash(config.serialized().utf8) }

  /// `arguments` without `--out`, `--jobs` (with their values), `--quiet` and `--overwrite`.
  public static func resultArguments(_ arguments: [String]) -> [String] {
    var kept: [String] = []
    var skipValue = false
    for argument in arguments {
      if skipValue {
        skipValue = false
        continue
      }
      if argument == "--out" || argument == "--jobs" {
        skipValue = true
      } else if !(argument.hasPrefix("--out=") || argument.hasPrefix("--jobs=")
        || argument == "--quiet" || argument == "--overwrite")
      {
        kept.append(argument)
      }
    }
    return kept
  }

  /// The manifest as pretty JSON with a final newline, listing `files`.
  public func json(files: [OutputSet.File]) -> String {
    let members: [JSONMember] = [
      JSONMember("toolkit", "SmartStackLab"),
      JSONMember("version", .string(SmartStackKit.version)),
      JSONMember("run", .string(run)),
      JSONMember("config_file", .null),
      JSONMember("config_hash", .string(configHash)),
      JSONMember("config", config),
      JSONMember("jobs", .number(Double(jobs))),
      JSONMember("started", .string(ISO8601.format(started))),
      JSONMember("finished", .string(ISO8601.format(finished))),
      JSONMember("duration_s", .number(NumberFormat.rounded(durationSeconds, decimals: 3))),
      JSONMember(
        "files", ExperimentManifest.filesJSON(ExperimentManifest.fileEntries(files))),
    ]
    return JSONValue.object(members).serialized(pretty: true) + "\n"
  }
}
