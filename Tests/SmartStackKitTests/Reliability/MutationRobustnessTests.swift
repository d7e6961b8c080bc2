import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench

/// Mutates valid inputs at random (seeded) and feeds them to the readers the fuzz targets
/// do not cover. Every result must be a value or the reader's documented error; a trap
/// would stop the test process, so reaching the end is the check. Failures name the seed.
@Suite("Reliability: mutated inputs to every reader")
struct MutationRobustnessTests {
  /// Bytes that matter to the formats: separators, quotes, line ends, NUL, invalid UTF-8,
  /// digits, signs, exponent letters, brackets.
  static let interesting: [[UInt8]] = [
    [0x2C], [0x22], [0x0A], [0x0D, 0x0A], [0x00], [0xFF], [0xC3], [0x09], [0x5C],
    Array("9".utf8), Array("-".utf8), Array("e".utf8), Array("1e400".utf8), Array("NaN".utf8),
    Array("{".utf8), Array("}".utf8), Array("[".utf8), Array("]".utf8), Array(":".utf8),
    Array("99999999999999999999".utf8), Array("-0".utf8), Array("null".utf8), Array("\"\"".utf8),
    Array("\\u0000".utf8), Array("\\ud800".utf8), [0xEF, 0xBB, 0xBF],
  ]

  /// 1 to 4 random edits: overwrite, insert, delete a range, duplicate a range, truncate.
  static func mutate(_ input: [UInt8], seed: UInt64) -> [UInt8] {
    var rng = SplitMix64(seed: seed)
    var bytes = input
    for _ in 0..<(1 + Int(rng.next() % 4)) {
      let n = bytes.count
      let at = n == 0 ? 0 : Int(rng.next() % UInt64(n))
      switch rng.next() % 6 {
      case 0 where n > 0: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
      case 1, 2:
        let piece = interesting[Int(rng.next() % UInt64(interesting.count))]
        bytes.insert(contentsOf: piece, at: at)
      case 3 where n > 0:
        let length = min(n - at, 1 + Int(rng.next() % 16))
        bytes.removeSubrange(at..<(at + length))
      case 4 where n > 0:
        let length = min(n - at, 1 + Int(rng.next() % 32))
        bytes.insert(contentsOf: bytes[at..<(at + length)], at: at)
      default: bytes.removeLast(n == 0 ? 0 : Int(rng.next() % UInt64(min(n, 8)) + 1))
      }
    }
    return bytes
  }

  /// Runs `read` over `runs` mutations of `valid`; returns the seeds whose error was not
  /// one of the documented kinds.
  static func unexpected(
    _ valid: String, runs: Int = 400, salt: UInt64, _ read: ([UInt8]) throws -> Void
  ) -> [String] {
    var bad: [String] = []
    for k in 0..<UInt64(runs) {
      let seed = salt &* 1_000_003 &+ k
      do {
        try read(mutate(Array(valid.utf8), seed: seed))
      } catch is DiagnosticList {
      } catch is Diagnostic {
      } catch is ArchiveError {
      } catch is ExperimentUsageError {
      } catch is InputFileError {
      } catch {
        bad.append("seed \(seed): \(type(of: error)): \(error)")
      }
    }
    return bad
  }

  @Test func visitLogs() {
    let valid = "timestamp,user\n2026-03-02T08:00:00Z,ana\n\"2026-03-02 09:00\",\"b,\"\"o\"\"b\"\n2026-03-03T10:00:00.250+01:00,\n"
    #expect(Self.unexpected(valid, salt: 1) { _ = try VisitLog.read(bytes: $0, file: "v.csv") } == [])
  }

  @Test func relevanceTimelines() {
    let valid = """
      {"instances": [{"id": "card", "kind": "RecentPurchases", "entries": [
        {"date": "2026-01-05T09:00:00Z", "relevance": {"score": 10, "duration": 3600}},
        {"date": "2026-01-05 12:00", "relevance": null},
        {"date": "2026-01-06T09:00:00+02:00", "relevance": {"score": 0.5}}]},
       {"id": "w", "entries": []}]}
      """
    #expect(Self.unexpected(valid, salt: 2) { _ = try TimelineFile.read(bytes: $0, file: "t.json") } == [])
  }

  @Test func stacks() {
    let valid = """
      {"instances": [{"id": "u2", "kind": "TransitDepartures", "configuration": {"line": "U2"}},
        {"id": "weather", "kind": "Weather"}],
       "intents": {"ViewDepartures": [["line"]]}}
      """
    #expect(Self.unexpected(valid, salt: 3) { _ = try StackSpec.read(bytes: $0, file: "s.json") } == [])
  }

  @Test func experimentConfigs() throws {
    let folder = try ExperimentFixture.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let valid = #"""
      {"name": "m", "seed": 3, "replicates": 2, "baseline": "mfu",
       "sources": [{"name": "f", "log": "log.csv", "visits": ["donations", "sessions:30"], "horizon": [60, 300],
                    "warmupDays": 0, "timezone": "Europe/Berlin"}],
       "strategies": ["mfu", "random", {"name": "hour-of-week", "parameters": {"half-life-days": [0, 2]}}],
       "outputs": {"trace": true}}
      """#
    let file = folder + "/exp.json"
    #expect(Self.unexpected(valid, runs: 300, salt: 4) { _ = try ExperimentConfig.read(bytes: $0, file: file) } == [])
  }

  @Test func reportTables() {
    let valid = "run_id,source,strategy,hit_rate\nf|mfu|0,f,mfu,0.5\n\"f|mru|0\",f,mru,\n"
    #expect(Self.unexpected(valid, salt: 5) { _ = try CSVTable.read(bytes: $0, file: "runs.csv") } == [])
  }

  @Test func lsappAndAppEventImports() {
    let lsapp = "user_id\tsession_id\ttimestamp\tapp_name\tevent_type\n1\t10\t2018-01-16 06:01:05\tGmail\tOpened\n1\t10\t2018-01-16 06:02:05\tGmail\tClosed\n2\t3\t2018-01-16 07:00:00\tMaps\tBroken\n"
    #expect(
      Self.unexpected(lsapp, salt: 6) { bytes in
        _ = try bytes.withUnsafeBufferPointer { try LSAppImporter().read($0, file: "l.tsv") }
        _ = try bytes.withUnsafeBufferPointer {
          try LSAppImporter(skipBadRows: true).read($0, file: "l.tsv")
        }
      } == [])
    let events = "timestamp,user,app,event\n2026-03-02T08:00:00Z,ana,com.a,open\n2026-03-02T08:01:00Z,ana,,home\n2026-03-02 08:02,,com.b,close\n"
    #expect(
      Self.unexpected(events, salt: 7) { bytes in
        _ = try bytes.withUnsafeBufferPointer { try AppEventsImporter().read($0, file: "e.csv") }
        _ = try bytes.withUnsafeBufferPointer {
          try AppEventsImporter(skipBadRows: true).read($0, file: "e.csv")
        }
      } == [])
  }

  @Test func gzipAndTarContainers() {
    for (salt, valid) in [(UInt64(8), ImporterFixtures.lsappGzip), (9, ImporterFixtures.lsappTarGzip)] {
      var bad: [String] = []
      for k in 0..<UInt64(300) {
        let seed = salt &* 1_000_003 &+ k
        do {
          _ = try ImportSource.unpack(
            Self.mutate(valid, seed: seed), file: "x.gz", extensions: [".tsv"], limit: 1 << 20)
        } catch {
          // Typed throws: every error is an ArchiveError.
          if error.description.isEmpty { bad.append("seed \(seed): empty message") }
        }
      }
      #expect(bad == [])
    }
  }
}
