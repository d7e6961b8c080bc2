import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld
import SmartStackExperiments

// The regression check of CI: this run against a committed `bench --json` baseline.

extension BenchReport {
  /// The measurements of this run more than `factor` times slower than `baseline`, the
  /// JSON object of an earlier `smartstack bench --json` on the same workload and build.
  ///
  /// Compared: each strategy's visits per second (strategies missing from either side are
  /// skipped), and CSV and JSON Lines MB per second, all per second of the measuring
  /// thread's **CPU time**: `visits / cpu_seconds`, `ingest_mb / ingest_cpu_seconds` and
  /// `ingest_jsonl_mb / ingest_jsonl_cpu_seconds` on the baseline's side. CPU time does not
  /// grow when other processes take the core, so a CI machine busy with something else
  /// does not fail the check as wall-clock rates would (a quick bench sharing its core
  /// with a test run measured CSV ingest 3.8x slower in wall time). A baseline without
  /// those fields is compared by its wall-clock rates (`visits_per_s`, `ingest_mb_per_s`,
  /// `ingest_jsonl_mb_per_s`) with this run's. A measurement regresses when
  /// `measured × factor < baseline`. One message per regression, e.g.
  /// `mfu: 2.10 M visits/s (CPU time) is more than 3x slower than the baseline's 12.00 M visits/s`.
  ///
  /// - Throws: `DiagnosticList` (`FILE:LINE:COLUMN: message`) when the baseline is not
  ///   such an object, or was measured with another workload, mode or build: rates of
  ///   different workloads are not comparable.
  public func regressions(againstBaseline bytes: [UInt8], file: String, factor: Double) throws -> [String] {
    var json = JSONDecoding(file: file, bytes: bytes)
    guard let root = json.parseDocument() else { return try json.finish(nil) }
    // The baseline holds more figures than are compared: the others are not unknown keys.
    let messages = json.decodeObject(root, ignoringUnknownKeys: true) { top in
      regressions(&top, factor: factor)
    }
    return try json.finish(messages)
  }

  /// The regressions against the baseline's top-level object `top`.
  private func regressions(_ top: inout JSONObjectReader, factor: Double) -> [String] {
    if let build = top.require("build", as: String.self), build != self.build, let item = top.object["build"] {
      top.json.report(
        "the baseline is a \(build) build and this run is a \(self.build) build: compare like with like", at: item)
    }
    _ = top.require("workload") { item, json in json.decodeObject(item, ignoringUnknownKeys: true, checkWorkload) }
    var messages: [String] = []
    /// Compares this run's `amount` per second with the baseline's: per CPU second when
    /// the baseline has a positive `baselineAmount` and `baselineCPU` (a tiny run's MB and
    /// CPU seconds can round to 0 in the JSON), else by the wall-clock rate `rateKey` of
    /// `object`.
    func check(
      _ what: String, _ unit: String, scale: Double, amount: Double, cpuSeconds: Double, wallSeconds: Double,
      baselineAmount: JSONItem?, baselineCPU: JSONItem?, object: inout JSONObjectReader, rateKey: String
    ) {
      let baseline: Double
      let measured: Double
      let clock: String
      if let a = baselineAmount, let c = baselineCPU,
        let amountBase = object.json.requireDouble(a, in: 0...Double.infinity),
        let cpuBase = object.json.requireDouble(c, in: 0...Double.infinity), amountBase > 0, cpuBase > 0
      {
        baseline = amountBase / cpuBase
        measured = amount / cpuSeconds
        clock = " (CPU time)"
      } else {
        guard let rate = object.require(rateKey, in: 0...Double.infinity) else { return }
        baseline = rate
        measured = amount / wallSeconds
        clock = ""
      }
      if measured * factor < baseline {
        let f = NumberFormat.format(factor)
        messages.append(
          "\(what): \(NumberFormat.format(measured / scale, decimals: 2))\(unit)\(clock) is more than \(f)x "
            + "slower than the baseline's \(NumberFormat.format(baseline / scale, decimals: 2))\(unit)")
      }
    }
    if let item = top.require("strategies"), let object = top.json.requireObject(item) {
      for s in strategies {
        guard let entry = object[s.name] else { continue }
        // One visit count for all strategies of a run: they face the same people.
        let visits = top.object["visits"]
        _ = top.json.decodeObject(entry, ignoringUnknownKeys: true) { fields -> Void? in
          check(
            s.name, " M visits/s", scale: 1e6, amount: Double(s.visits), cpuSeconds: s.cpuSeconds,
            wallSeconds: s.seconds, baselineAmount: visits, baselineCPU: fields.object["cpu_seconds"],
            object: &fields, rateKey: "visits_per_s")
        }
      }
    }
    if csv.rows > 0 {
      check(
        "CSV ingest", " MB/s", scale: 1, amount: Double(csv.bytes) / 1_000_000, cpuSeconds: csv.cpuSeconds,
        wallSeconds: csv.seconds, baselineAmount: top.object["ingest_mb"],
        baselineCPU: top.object["ingest_cpu_seconds"], object: &top, rateKey: "ingest_mb_per_s")
    }
    if jsonl.rows > 0 {
      check(
        "JSON Lines ingest", " MB/s", scale: 1, amount: Double(jsonl.bytes) / 1_000_000,
        cpuSeconds: jsonl.cpuSeconds, wallSeconds: jsonl.seconds, baselineAmount: top.object["ingest_jsonl_mb"],
        baselineCPU: top.object["ingest_jsonl_cpu_seconds"], object: &top, rateKey: "ingest_jsonl_mb_per_s")
    }
    return messages
  }

  /// Reports each figure of the baseline's `workload` that differs from this run's.
  private func checkWorkload(_ o: inout JSONObjectReader) -> Void? {
    let w = workload
    let expected: [(String, Double)] = [
      ("people", Double(w.people)), ("days", Double(w.days)), ("visits_per_day", Double(w.visitsPerDay)),
      ("donations_per_day", Double(w.donationsPerDay)), ("stack_size", Double(w.stackSize)),
      ("entries_per_instance_per_day", Double(w.entriesPerInstancePerDay)),
      ("horizon_s", Double(w.horizonSeconds)), ("ingest_rows", Double(w.ingestRows)), ("seed", Double(w.seed)),
    ]
    for (key, value) in expected {
      if let number = o.require(key, as: Double.self), number != value, let item = o.object[key] {
        o.json.report(
          "the baseline's workload has \(NumberFormat.format(number)), this run \(NumberFormat.format(value)): "
            + "measure the baseline with the same options", at: item)
      }
    }
    for (key, value) in [("relevance", w.relevance), ("quick", quick)] {
      if let flag = o.require(key, as: Bool.self), flag != value, let item = o.object[key] {
        o.json.report("the baseline has \(flag), this run \(value): measure the baseline with the same options", at: item)
      }
    }
    return ()
  }
}
