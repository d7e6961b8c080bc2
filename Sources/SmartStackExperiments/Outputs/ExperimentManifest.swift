import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// `manifest.json`: what was run, on what, by which toolkit, when.
///
/// It is the one output that differs between two runs of the same experiment (it records
/// times, the number of jobs and how many cells came from a journal); every CSV is
/// byte-identical. Keys in a fixed order:
/// `toolkit`, `version`, `run` (`batch`, `shard`, `merge`, or `exposures` for the folder of
/// `batch --emit-exposures`, `SetKind`), `config_file`, `config_hash`, `seed`, `config`
/// (the resolved config), `sources` (each with its statistics and input hashes), `cells`
/// (`total`, `in_outputs`, `run`, `from_journal`; not for `exposures`), `shard`, `jobs`,
/// `started`, `finished` (ISO 8601 UTC), `duration_s`, `files`, and for a merge
/// `merged_from`. `files` lists the set's other files in the order written, each as
/// `{"name": …, "bytes": size, "fnv1a64": FNV-1a 64 of its bytes (16 hex digits),
/// "crc32": zlib's CRC-32 of its bytes (8 hex digits)}`: `smartstack report` refuses a
/// folder whose files do not match (`ManifestCheck`), and the Python package's `load`
/// checks size and CRC-32 (which Python's `zlib.crc32` computes at C speed).
public struct ExperimentManifest: Sendable {
  public enum Kind: String, Sendable {
    case batch, shard, merge
    /// The exposure logs of `batch --emit-exposures` (`SetKind.exposures`).
    case exposures = "exposures"
  }

  public var kind: Kind
  public var configFile: String?
  public var shard: Shard?
  /// Cells whose results are in the outputs.
  public var cellsInOutputs: Int
  /// Cells run by this invocation.
  public var cellsRun: Int
  /// Cells read back from journals.
  public var cellsFromJournal: Int
  public var jobs: Int
  public var started: Instant
  public var finished: Instant
  public var durationSeconds: Double
  /// The set's other files: name, size in bytes, FNV-1a 64 (hex), CRC-32 (hex).
  public var files: [(name: String, bytes: Int, hash: String, crc32: String)]
  public var mergedFrom: [String]

  public init(
    kind: Kind, configFile: String?, shard: Shard?, cellsInOutputs: Int, cellsRun: Int,
    cellsFromJournal: Int, jobs: Int, started: Instant, finished: Instant, durationSeconds: Double,
    files: [OutputSet.File], mergedFrom: [String] = []
  ) {
    self.kind = kind
    self.configFile = configFile
    self.shard = shard
    self.cellsInOutputs = cellsInOutputs
    self.cellsRun = cellsRun
    self.cellsFromJournal = cellsFromJournal
    self.jobs = jobs
    self.started = started
    self.finished = finished
    self.durationSeconds = durationSeconds
    self.files = Self.fileEntries(files)
    self.mergedFrom = mergedFrom
  }

  /// The manifest as pretty JSON with a final newline.
  public func json(_ outline: ExperimentOutline) -> String {
    var members: [JSONMember] = [
      JSONMember("toolkit", "SmartStackLab"),
      JSONMember("version", .string(SmartStackKit.version)),
      JSONMember("run", .string(kind.rawValue)),
      JSONMember("config_file", configFile.map { .string($0) } ?? .null),
      JSONMember("config_hash", .string(outline.configHash)),
      JSONMember("seed", ExperimentOutline.seedJSON(outline.seed)),
      JSONMember("config", outline.config),
      JSONMember("sources", .array(outline.sources.map { JSONNode($0.jsonValue) }))
    ]
    if kind != .exposures {
      members.append(JSONMember(
        "cells",
        [
          "total": .number(Double(outline.cellCount)),
          "in_outputs": .number(Double(cellsInOutputs)),
          "run": .number(Double(cellsRun)),
          "from_journal": .number(Double(cellsFromJournal)),
        ]))
    }
    members += [
      JSONMember("shard", shard.map { .string($0.description) } ?? .null),
      JSONMember("jobs", .number(Double(jobs))),
      JSONMember("started", .string(ISO8601.format(started))),
      JSONMember("finished", .string(ISO8601.format(finished))),
      JSONMember("duration_s", .number(NumberFormat.rounded(durationSeconds, decimals: 3))),
      JSONMember("files", Self.filesJSON(files)),
    ]
    if kind == .merge {
      members.append(JSONMember("merged_from", .array(mergedFrom.map { JSONNode(.string($0)) })))
    }
    return JSONValue.object(members).serialized(pretty: true) + "\n"
  }

  /// Name, size, FNV-1a 64 and CRC-32 (lower-case hex, 16 and 8 digits) of each file.
  ///
  /// - Complexity: O(total bytes).
  public static func fileEntries(
    _ files: [OutputSet.File]
  ) -> [(name: String, bytes: Int, hash: String, crc32: String)] {
    files.map { ($0.name, $0.bytes.count, FNV1a.hexHash($0.bytes), NumberFormat.hex(CRC32.checksum($0.bytes))) }
  }

  /// The `files` list of a manifest: `{"name", "bytes", "fnv1a64", "crc32"}` per file.
  public static func filesJSON(_ files: [(name: String, bytes: Int, hash: String, crc32: String)]) -> JSONValue {
    .array(
      files.map {
        JSONNode([
          "name": .string($0.name), "bytes": .number(Double($0.bytes)), "fnv1a64": .string($0.hash),
          "crc32": .string($0.crc32),
        ])
      })
  }
}
