import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// Something a batch runs strategies over: a replayed donation log or a simulated
/// scenario, with every option fixed (one source point of the design).
///
/// A source is built once (reading and preparing its input) and then shared, read-only,
/// by every cell that uses it, concurrently: `run` must not mutate shared state, and its
/// result may depend only on its arguments.
public protocol ExperimentSource: Sendable {
  /// The unique label, including the sweep point (`commuter`, `sample[horizon=60]`).
  var name: String { get }
  /// `"log"` or `"scenario"`.
  var kind: String { get }
  /// What the input holds, for the manifest.
  var statistics: SourceStatistics { get }
  /// True when the statistical units of `summary.csv` and `paired.csv` are (replicate,
  /// person) pairs: a scenario draws new people per replicate. False when they are
  /// people, each averaged over replicates: a log's people are the same in every
  /// replicate and only strategy randomness changes.
  var unitsArePeoplePerReplicate: Bool { get }

  /// Runs `choice` over the source for one replicate. Strategies derive their own
  /// randomness from (`seed`, `replicate`, strategy, person), so the result depends on
  /// nothing else.
  func run(_ choice: StrategyChoice, replicate: Int, seed: UInt64) throws -> RunMetrics

  /// Runs as `run` does and also records every scored visit (`trace.csv` rows tagged
  /// with `runID`); the trace is nil for a source that cannot trace.
  func runTraced(
    _ choice: StrategyChoice, replicate: Int, seed: UInt64, runID: String
  ) throws -> (metrics: RunMetrics, trace: TraceRecorder?)

  /// Runs as `run` does over only the people `people` (indices in the source's person
  /// order), each with the randomness it has in a whole run, for a people-shard
  /// (`PeopleBlocks`): per-person counts, Gini values and times to surface of those people,
  /// and `daily` as the list of their person-days in the order a run adds them
  /// (`CellResult.people`). Sources whose people cannot run apart throw.
  func run(_ choice: StrategyChoice, replicate: Int, seed: UInt64, people: Range<Int>) throws -> RunMetrics
}

/// A source whose `run(_:replicate:seed:people:)` runs any block of its
/// `statistics.people` people as a whole run does, so that one machine may cut its cells
/// into blocks on its own (`PeopleInParallel`): the toolkit's log and scenario sources.
/// `package`, not a public declaration: a source outside the toolkit that declared it
/// wrongly would make results depend on `--jobs`, so only sources tested for it conform
/// (`PeopleInParallelTests`, `PeopleInParallelRunTests`).
package protocol PeopleApartSource: ExperimentSource {}

/// A source asked for a block of its people that it cannot run apart from the others.
public struct PeopleBlockError: Error, Sendable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

extension ExperimentSource {
  public func runTraced(
    _ choice: StrategyChoice, replicate: Int, seed: UInt64, runID: String
  ) throws -> (metrics: RunMetrics, trace: TraceRecorder?) {
    (try run(choice, replicate: replicate, seed: seed), nil)
  }

  public func run(_ choice: StrategyChoice, replicate: Int, seed: UInt64, people: Range<Int>) throws -> RunMetrics {
    throw PeopleBlockError("\(name): a \(kind) source runs its people together: its cells cannot be cut into people blocks")
  }
}

/// A log's people are replayed apart (`run(_:replicate:seed:people:)`).
extension LogSource: PeopleApartSource {}

/// What a source's input holds: written into the manifest and the batch journal.
public struct SourceStatistics: Sendable, Hashable {
  /// People (log users with at least one donation; simulated people per replicate).
  public var people: Int
  /// Input events (donations in the log; 0 when not known before a run).
  public var events: Int
  /// Scored visits per run when known before any run (replay), else nil.
  public var visits: Int?
  /// First and last event instants (epoch ms), nil when there are none.
  public var first: Int64?
  public var last: Int64?
  /// The CRC-32 of the main input file's bytes (the log or the scenario), 8 hex digits
  /// (`FileDigest`).
  public var contentHash: String
  /// Every input file with its role (`log`, `visits`, `stack`, `timelines`, `scenario`),
  /// its path as written in the config and its CRC-32 (8 hex digits).
  public var inputs: [SourceInput]

  public init(
    people: Int, events: Int, visits: Int? = nil, first: Int64? = nil, last: Int64? = nil,
    contentHash: String, inputs: [SourceInput] = []
  ) {
    self.people = people
    self.events = events
    self.visits = visits
    self.first = first
    self.last = last
    self.contentHash = contentHash
    self.inputs = inputs
  }

  /// (last - first) in days, 0 without events.
  public var spanDays: Double {
    guard let first, let last else { return 0 }
    return Double(last &- first) / 86_400_000
  }
}

/// One input file of a source.
public struct SourceInput: Sendable, Hashable {
  public var role: String
  public var path: String
  public var hash: String
  public init(role: String, path: String, hash: String) {
    self.role = role
    self.path = path
    self.hash = hash
  }
}

/// FNV-1a, 64-bit (offset basis `0xcbf29ce484222325`, prime `0x100000001b3`): the config
/// hash, journal lines' checksums and report files' hashes (input files are identified by
/// their CRC-32: `FileDigest`). The same bytes give the same hash on every platform and in
/// every process.
public enum FNV1a {
  public static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
  public static let prime: UInt64 = 0x0000_0100_0000_01B3

  /// The hash of `bytes`. - Complexity: O(n).
  public static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash = offsetBasis
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= prime
    }
    return hash
  }

  /// 16 lowercase hex digits, zero-padded (`NumberFormat.hex`).
  public static func hex(_ value: UInt64) -> String { NumberFormat.hex(value) }

  /// `hex(hash(bytes))`.
  public static func hexHash(_ bytes: some Sequence<UInt8>) -> String { hex(hash(bytes)) }
}
