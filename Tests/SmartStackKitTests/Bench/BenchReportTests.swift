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

@Suite("Bench report")
struct BenchReportTests {
  /// A report with hand-picked numbers: 10,000 visits (the fewest whose speed is judged),
  /// 5,000 donations, 5,000 entries.
  /// `wallFactor` stretches every wall-clock time (the core shared with other processes)
  /// and leaves the CPU times alone.
  func report(mfuSeconds: Double = 0.001, csvSeconds: Double = 0.5, wallFactor: Double = 1) -> BenchReport {
    var r = BenchReport(workload: BenchWorkload(people: 2, days: 1, ingestRows: 1_000_000), repetitions: 1)
    r.machine = BenchMachine(cpu: "Test CPU", cores: 2, coresAllowed: 1)
    r.visits = 10_000
    r.donations = 5_000
    r.entries = 5_000
    r.generationSeconds = 0.25
    r.strategies = [
      BenchReport.StrategyResult(
        name: "mfu", visits: 10_000, seconds: mfuSeconds * wallFactor, cpuSeconds: mfuSeconds, hitRate: 0.25),
      BenchReport.StrategyResult(
        name: "bandit", visits: 10_000, seconds: 0.02 * wallFactor, cpuSeconds: 0.02, hitRate: 0.1),
    ]
    r.csv = BenchReport.IngestResult(
      rows: 1_000_000, bytes: 64_000_000, seconds: csvSeconds * wallFactor, cpuSeconds: csvSeconds)
    r.jsonl = BenchReport.IngestResult(rows: 1_000_000, bytes: 128_000_000, seconds: 0.64 * wallFactor, cpuSeconds: 0.64)
    r.peakRSSBytes = 123_456_789
    r.simulationPeakRSSBytes = 20_000_000
    return r
  }

  @Test func ratesFollowTheirDefinitions() {
    let r = report()
    let mfu = r.strategies[0]
    #expect(r.visitsPerSecond(mfu) == 10_000 / 0.001)  // 10 M visits/s
    #expect(r.eventsPerSecond(mfu) == 20_000 / 0.001)  // visits + donations + entries
    #expect(abs(r.nanosecondsPerDecision(mfu) - 100) < 1e-9)
    #expect(r.csv.rowsPerSecond == 2_000_000)
    #expect(r.csv.megabytesPerSecond == 128)
    #expect(r.jsonl.megabytesPerSecond == 200)
  }

  @Test func targetsAreMetOrMissedByTheIssuesThresholds() {
    let checks = report().targets
    #expect(checks.map(\.what) == ["mfu visits/s", "bandit visits/s", "CSV ingest MB/s", "JSON Lines ingest MB/s"])
    // mfu exactly 10 M/s meets its target; bandit 0.5 M/s misses 3 M/s; CSV 128 MB/s misses 200.
    #expect(checks.map(\.met) == [true, false, false, true])
    #expect(report(mfuSeconds: 0.0011).targets[0].met == false)
  }

  /// The keys the issue asks for, and the workload, in one object.
  @Test func jsonHasTheIssuesKeys() throws {
    let text = report().json.serialized()
    let root = try JSONParser.parse(text)
    guard case .object(let members) = root.value else {
      Issue.record("not an object: \(text)")
      return
    }
    let keys = members.map(\.key)
    for key in ["workload", "ingest_rows_per_s", "ingest_mb_per_s", "peak_rss_mb", "strategies", "build"] {
      #expect(keys.contains(key), "missing \(key)")
    }
    #expect(text.contains(#""ingest_rows_per_s":2000000,"ingest_mb_per_s":128,"#))
    #expect(text.contains(#""peak_rss_mb":123.5"#))
    #expect(
      text.contains(
        #""strategies":{"mfu":{"visits_per_s":10000000,"events_per_s":20000000,"ns_per_decision":100,"#))
    #expect(text.contains(#""workload":{"people":2,"days":1,"visits_per_day":90,"donations_per_day":30,"#))
    #expect(text.contains(#""missed_targets":["bandit visits/s","CSV ingest MB/s"]"#))
  }

  @Test func textShowsEveryStrategyAndEveryMissedTarget() {
    let text = report().text
    #expect(text.contains("mfu"))
    #expect(text.contains("10.00 M"))
    #expect(text.contains(">= 3.00 M: MISSED"))
    #expect(text.contains("ingest CSV: 1000000 rows, 64.0 MB in 0.500 s: 2.00 M rows/s, 128.0 MB/s  >= 200 MB/s: MISSED"))
    #expect(text.contains("targets missed: bandit visits/s, CSV ingest MB/s"))
  }

  /// A log of under 10 MB is read in milliseconds, too short to time: its ingest target is
  /// neither met nor missed but not judged, in the text and the JSON.
  @Test func anIngestOfUnderTenMegabytesIsNotJudged() throws {
    var r = report()
    r.csv = BenchReport.IngestResult(rows: 1_000, bytes: 64_000, seconds: 0.01, cpuSeconds: 0.01)
    #expect(!r.targets.contains { $0.what == "CSV ingest MB/s" })
    #expect(r.unjudgedTargets == ["CSV ingest MB/s"])
    let text = r.text
    #expect(text.contains("6.4 MB/s  >= 200 MB/s: not judged (a read under 10 MB is too short to time)"))
    #expect(text.contains("targets missed: bandit visits/s\n"))
    #expect(text.contains("not judged: CSV ingest MB/s\n"))
    let json = r.json.serialized()
    #expect(json.contains(#""missed_targets":["bandit visits/s"],"unjudged_targets":["CSV ingest MB/s"]"#))
    // At 10 MB it is judged again.
    r.csv = BenchReport.IngestResult(rows: 156_250, bytes: 10_000_000, seconds: 1, cpuSeconds: 1)
    #expect(r.unjudgedTargets.isEmpty)
    #expect(r.targets.contains { $0.what == "CSV ingest MB/s" && !$0.met })
  }

  /// A pass of under 10,000 visits is over in a fraction of a millisecond and timed with
  /// what a pass costs once: its strategy's target is not judged, in the text and the
  /// JSON, while its rates are still reported.
  @Test func aPassOfUnderTenThousandVisitsIsNotJudged() throws {
    var r = report()
    r.strategies[1].visits = 9_999
    r.strategies[1].seconds = 0.0001
    #expect(r.targets.map(\.what) == ["mfu visits/s", "CSV ingest MB/s", "JSON Lines ingest MB/s"])
    #expect(r.unjudgedTargets == ["bandit visits/s"])
    let text = r.text
    #expect(text.contains(">= 3.00 M: not judged (a pass under 10000 visits is too short to time)"))
    #expect(text.contains("targets missed: CSV ingest MB/s\n"))
    #expect(text.contains("not judged: bandit visits/s\n"))
    #expect(
      r.json.serialized().contains(#""missed_targets":["CSV ingest MB/s"],"unjudged_targets":["bandit visits/s"]"#))
    // Both kinds at once, strategies first; a strategy without a target is in neither list.
    r.csv = BenchReport.IngestResult(rows: 1_000, bytes: 64_000, seconds: 0.01, cpuSeconds: 0.01)
    r.strategies.append(
      BenchReport.StrategyResult(name: "oracle", visits: 10, seconds: 1, cpuSeconds: 1))
    #expect(r.unjudgedTargets == ["bandit visits/s", "CSV ingest MB/s"])
    #expect(r.text.contains("all judged targets met\n"))
    // At 10,000 visits it is judged again.
    r.strategies[1].visits = 10_000
    #expect(r.unjudgedTargets == ["CSV ingest MB/s"])
    #expect(r.targets.contains { $0.what == "bandit visits/s" && $0.met })
  }

  // MARK: - Baseline

  func baseline(_ r: BenchReport) -> [UInt8] { Array(r.json.serialized(pretty: true).utf8) }

  @Test func aRunAsFastAsItsBaselineHasNoRegression() throws {
    let r = report()
    #expect(try r.regressions(againstBaseline: baseline(r), file: "b.json", factor: 3).isEmpty)
    // Almost 3x slower still passes.
    #expect(try report(mfuSeconds: 0.0029).regressions(againstBaseline: baseline(r), file: "b.json", factor: 3).isEmpty)
  }

  @Test func aGrossSlowdownIsReported() throws {
    let r = report()
    let slow = report(mfuSeconds: 0.0031, csvSeconds: 2)
    #expect(
      try slow.regressions(againstBaseline: baseline(r), file: "b.json", factor: 3) == [
        "mfu: 3.23 M visits/s (CPU time) is more than 3x slower than the baseline's 10.00 M visits/s",
        "CSV ingest: 32.00 MB/s (CPU time) is more than 3x slower than the baseline's 128.00 MB/s",
      ])
  }

  /// A run that shared its core (wall time 5x, CPU time unchanged) is no regression; one
  /// whose CPU time grew is, even when its wall time did not.
  @Test func theCheckComparesCPUTimeNotWallTime() throws {
    let r = report()
    #expect(try report(wallFactor: 5).regressions(againstBaseline: baseline(r), file: "b.json", factor: 3).isEmpty)
    var slow = report(mfuSeconds: 0.0031)
    slow.strategies[0].seconds = 0.001
    #expect(
      try slow.regressions(againstBaseline: baseline(r), file: "b.json", factor: 3) == [
        "mfu: 3.23 M visits/s (CPU time) is more than 3x slower than the baseline's 10.00 M visits/s"
      ])
  }

  /// A baseline without CPU times, or with CPU times rounded to 0 (a tiny run), is
  /// compared by wall-clock rates.
  @Test func aBaselineWithoutCPUTimesIsComparedByWallClock() throws {
    let original = String(decoding: baseline(report()), as: UTF8.self)
    var renamed = original
    for key in ["\"cpu_seconds\"", "\"ingest_cpu_seconds\"", "\"ingest_jsonl_cpu_seconds\""] {
      renamed = renamed.replacingOccurrences(of: key, with: "\"unused_\(key.dropFirst())")
    }
    let zeroed = try NSRegularExpression(pattern: "(cpu_seconds\": )[0-9.e+-]+").stringByReplacingMatches(
      in: original, range: NSRange(original.startIndex..., in: original), withTemplate: "$10")
    #expect(zeroed != original && zeroed.contains("\"ingest_cpu_seconds\": 0,"))
    for text in [renamed, zeroed] {
      let bytes = Array(text.utf8)
      #expect(try report().regressions(againstBaseline: bytes, file: "b.json", factor: 3).isEmpty)
      #expect(
        try report(wallFactor: 5).regressions(againstBaseline: bytes, file: "b.json", factor: 3) == [
          "mfu: 2.00 M visits/s is more than 3x slower than the baseline's 10.00 M visits/s",
          "bandit: 0.10 M visits/s is more than 3x slower than the baseline's 0.50 M visits/s",
          "CSV ingest: 25.60 MB/s is more than 3x slower than the baseline's 128.00 MB/s",
          "JSON Lines ingest: 40.00 MB/s is more than 3x slower than the baseline's 200.00 MB/s",
        ])
    }
  }

  @Test func aBaselineOfAnotherWorkloadOrBuildIsRefused() throws {
    var other = report()
    other.workload.people = 3
    other.build = "other"
    do {
      _ = try report().regressions(againstBaseline: baseline(other), file: "b.json", factor: 3)
      Issue.record("expected diagnostics")
    } catch let list as DiagnosticList {
      let messages = list.diagnostics.map(\.message)
      #expect(messages.count == 2)
      #expect(messages[0].hasPrefix("build: the baseline is a other build and this run is a "))
      #expect(
        messages[1] == "workload.people: the baseline's workload has 3, this run 2: measure the baseline with the same options")
    }
  }

  @Test func aBaselineThatIsNotABenchObjectIsReportedWithItsPosition() throws {
    #expect(throws: DiagnosticList.self) {
      try report().regressions(againstBaseline: Array("[1]".utf8), file: "b.json", factor: 3)
    }
    do {
      _ = try report().regressions(againstBaseline: Array("{\"build\": 1}".utf8), file: "b.json", factor: 3)
    } catch let list as DiagnosticList {
      #expect(list.diagnostics.map(\.description).contains("b.json:1:11: build: expected a string, found 1"))
      #expect(list.diagnostics.map(\.description).contains("b.json:1:1: missing required key \"workload\""))
    }
  }

  // MARK: - Machine and memory

  @Test func procStatusFieldsAreReadInBytes() {
    let status = Array("Name:\tsmartstack\nVmPeak:\t  200 kB\nVmHWM:\t   12345 kB\nThreads:\t3\n".utf8)
    #expect(ProcessMemory.parseStatusField("VmHWM", in: status) == 12_345 * 1_024)
    #expect(ProcessMemory.parseStatusField("Threads", in: status) == 3)
    #expect(ProcessMemory.parseStatusField("VmRSS", in: status) == nil)
    #expect(ProcessMemory.parseStatusField("Name", in: status) == nil)
  }
}
