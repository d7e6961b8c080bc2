import Foundation
import Testing

@testable import SmartStackKit

@Suite("smartstack bench")
struct BenchCommandTests {
  let tiny = ["bench", "--people", "2", "--days", "1", "--ingest-rows", "30", "--strategy", "mfu,markov", "--quiet"]

  func object(_ text: String) throws -> [JSONMember] {
    guard case .object(let members) = try JSONParser.parse(text).value else {
      Issue.record("not a JSON object: \(text)")
      return []
    }
    return members
  }

  @Test func jsonHasTheWorkloadRatesMemoryAndStrategies() throws {
    let r = try CLI.run(tiny + ["--json"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.isEmpty)
    let members = try object(r.stdout)
    let keys = members.map(\.key)
    for key in ["build", "workload", "ingest_rows_per_s", "ingest_mb_per_s", "peak_rss_mb", "strategies"] {
      #expect(keys.contains(key), "missing \(key)")
    }
    #expect(r.stdout.contains(#""build": "debug""#) || r.stdout.contains(#""build": "release""#))
    #expect(r.stdout.contains(#""people": 2"#))
    #expect(r.stdout.contains(#""ingest_rows": 30"#))
    let strategies = members.first { $0.key == "strategies" }?.node.value
    guard case .object(let lanes)? = strategies else {
      Issue.record("no strategies object")
      return
    }
    #expect(lanes.map(\.key) == ["mfu", "markov"])
    for lane in lanes {
      guard case .object(let fields) = lane.node.value else { continue }
      #expect(fields.map(\.key).prefix(3) == ["visits_per_s", "events_per_s", "ns_per_decision"])
    }
  }

  @Test func theTableNamesTheBuildEveryStrategyAndIngest() throws {
    let r = try CLI.run(Array(tiny.dropLast()))  // with progress on stderr
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.hasPrefix("smartstack bench ("))
    #expect(r.stdout.contains(" build"))
    #expect(r.stdout.contains("mfu "))
    #expect(r.stdout.contains("markov "))
    #expect(r.stdout.contains("ingest CSV: 30 rows"))
    #expect(r.stdout.contains("ingest JSON Lines: 30 rows"))
    #expect(r.stderr.contains("bench: simulating 2 people with 2 strategies"))
  }

  /// A baseline far faster than any machine fails with exit 1 and names each slow
  /// measurement; one far slower passes.
  @Test func aBaselineCheckFailsOnlyOnGrossSlowdowns() throws {
    let folder = try CLI.temporaryFolder()
    let first = try CLI.run(tiny + ["--json"])
    #expect(first.status == 0)
    func baseline(scaledBy factor: Double) throws -> String {
      // Every rate in the baseline multiplied by `factor`: the wall-clock rates, and the
      // CPU-time rates through their CPU seconds (divided by `factor`).
      var text = first.stdout
      for (key, multiplier) in [
        ("visits_per_s", factor), ("ingest_mb_per_s", factor), ("ingest_jsonl_mb_per_s", factor),
        ("cpu_seconds", 1 / factor), ("ingest_cpu_seconds", 1 / factor), ("ingest_jsonl_cpu_seconds", 1 / factor),
      ] {
        let pattern = try NSRegularExpression(pattern: "\"\(key)\": ([0-9.e+-]+)")
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
          let range = Range(match.range(at: 1), in: text)!
          text.replaceSubrange(range, with: NumberFormat.format(Double(text[range])! * multiplier))
        }
      }
      return try CLI.write(text, to: "baseline-\(factor).json", in: folder)
    }
    let fast = try CLI.run(tiny + ["--baseline", baseline(scaledBy: 1e6)])
    #expect(fast.status == 1)
    #expect(fast.stderr.contains("bench: regression: mfu: "))
    #expect(fast.stderr.contains("bench: regression: markov: "))
    #expect(fast.stderr.contains("bench: regression: CSV ingest: "))
    #expect(fast.stderr.contains("bench: regression: JSON Lines ingest: "))
    let slow = try CLI.run(tiny + ["--baseline", baseline(scaledBy: 1e-6)])
    #expect(slow.status == 0, "\(slow.stderr)")
  }

  @Test func aBaselineOfAnotherWorkloadIsADataError() throws {
    let folder = try CLI.temporaryFolder()
    let other = try CLI.run(["bench", "--people", "3", "--days", "1", "--ingest-rows", "30", "--strategy", "mfu", "--quiet", "--json"])
    let path = try CLI.write(other.stdout, to: "b.json", in: folder)
    let r = try CLI.run(tiny + ["--baseline", path])
    #expect(r.status == 65)
    #expect(r.stderr.contains("the baseline's workload has 3, this run 2: measure the baseline with the same options"))
    let missing = try CLI.run(tiny + ["--baseline", folder.appendingPathComponent("none.json").path])
    #expect(missing.status == 66)
  }

  @Test func badOptionsAreUsageErrors() throws {
    #expect(try CLI.run(["bench", "--people", "0"]).status == 64)
    #expect(try CLI.run(["bench", "--repeat", "0"]).status == 64)
    #expect(try CLI.run(["bench", "--max-slowdown", "0.5"]).status == 64)
    let r = try CLI.run(["bench", "--strategy", "mfx", "--people", "1", "--days", "1"])
    #expect(r.status == 64)
    #expect(r.stderr.contains("unknown strategy 'mfx'"))
  }
}
