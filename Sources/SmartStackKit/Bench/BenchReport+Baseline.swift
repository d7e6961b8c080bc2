// The regression check of CI: this run against a committed `bench --json` baseline.

extension BenchReport {
  /// The measurements of this run more than `factor` times slower than `baseline`, the
  /// JSON object of an earlier `smartstack bench --json` on the same workload and build.
  ///
  /// Compared: each strategy's `visits_per_s` (strategies missing from either side are
  /// skipped), `ingest_mb_per_s` and `ingest_jsonl_mb_per_s`. A measurement regresses
  /// when `measured × factor < baseline`. One message per regression, e.g.
  /// `mfu: 2.10 M visits/s is more than 3x slower than the baseline's 12.00 M visits/s`.
  ///
  /// - Throws: `DiagnosticList` (`FILE:LINE:COLUMN: message`) when the baseline is not
  ///   such an object, or was measured with another workload, mode or build: rates of
  ///   different workloads are not comparable.
  public func regressions(againstBaseline bytes: [UInt8], file: String, factor: Double) throws -> [String] {
    var json = JSONDecoding(file: file, bytes: bytes)
    var messages: [String] = []
    guard let root = json.parseDocument(), let top = json.requireObject(root) else {
      return try json.finish(messages)
    }
    if let item = json.require(top, "build"), let build = json.requireString(item), build != self.build {
      json.report(
        "the baseline is a \(build) build and this run is a \(self.build) build: compare like with like", at: item)
    }
    if let object = json.requireObject(top, "workload") {
      let w = workload
      let expected: [(String, Double)] = [
        ("people", Double(w.people)), ("days", Double(w.days)), ("visits_per_day", Double(w.visitsPerDay)),
        ("donations_per_day", Double(w.donationsPerDay)), ("stack_size", Double(w.stackSize)),
        ("entries_per_instance_per_day", Double(w.entriesPerInstancePerDay)),
        ("horizon_s", Double(w.horizonSeconds)), ("ingest_rows", Double(w.ingestRows)), ("seed", Double(w.seed)),
      ]
      for (key, value) in expected {
        if let item = json.require(object, key), let number = json.requireDouble(item), number != value {
          json.report(
            "the baseline's workload has \(NumberFormat.format(number)), this run \(NumberFormat.format(value)): "
              + "measure the baseline with the same options", at: item)
        }
      }
      for (key, value) in [("relevance", w.relevance), ("quick", quick)] {
        if let item = json.require(object, key), let flag = json.requireBool(item), flag != value {
          json.report("the baseline has \(flag), this run \(value): measure the baseline with the same options", at: item)
        }
      }
    }
    func check(_ what: String, _ unit: String, measured: Double, _ item: JSONItem?, scale: Double) {
      guard let item, let baseline = json.requireDouble(item, in: 0...Double.infinity) else { return }
      if measured * factor < baseline {
        let f = NumberFormat.format(factor)
        messages.append(
          "\(what): \(NumberFormat.format(measured / scale, decimals: 2))\(unit) is more than \(f)x slower "
            + "than the baseline's \(NumberFormat.format(baseline / scale, decimals: 2))\(unit)")
      }
    }
    if let object = json.requireObject(top, "strategies") {
      for s in strategies {
        guard let entry = object[s.name], let fields = json.requireObject(entry) else { continue }
        check(s.name, " M visits/s", measured: visitsPerSecond(s), json.require(fields, "visits_per_s"), scale: 1e6)
      }
    }
    if csv.rows > 0 {
      check("CSV ingest", " MB/s", measured: csv.megabytesPerSecond, json.require(top, "ingest_mb_per_s"), scale: 1)
    }
    if jsonl.rows > 0 {
      check(
        "JSON Lines ingest", " MB/s", measured: jsonl.megabytesPerSecond,
        json.require(top, "ingest_jsonl_mb_per_s"), scale: 1)
    }
    return try json.finish(messages)
  }
}
