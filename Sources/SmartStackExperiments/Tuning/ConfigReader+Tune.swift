import SmartStackBase
import SmartStackEngine

extension ConfigReader {
  /// The metrics a tuner may maximise: rates where higher is better.
  static let tunableMetrics = [
    "hit_rate", "hit_rate_macro", "hit_at_3", "mrr", "mrr_macro", "coverage", "relevance_honoured",
    "windows_surfaced",
  ]

  /// A strategy object's `tune` (`TuneSpec`), for a strategy whose parameters are
  /// `specs` and whose `parameters` object names `fixed`:
  /// `{"parameters": {NAME: {"min": A, "max": B, "scale": "log"} | [V, …]}, "search":
  /// "grid" | "random" | "halving", "trials": N, "metric": M, "eta": E}`. A grid takes
  /// lists of values, the other searches ranges; every value lies in its parameter's
  /// range (and is whole for an integer parameter); nil after a problem.
  func readTune(
    _ item: JSONItem, strategy: String, specs: [StrategyParameterSpec], fixed: [String],
    _ json: inout JSONDecoding
  ) -> TuneSpec? {
    json.decodeObject(item) { o in
      let searchItem = o.optional("search")
      var search = TuneSpec.Search.random
      if let searchItem, let text = o.json.requireString(searchItem) {
        if let value = TuneSpec.Search(rawValue: text) {
          search = value
        } else {
          o.json.report(
            "expected one of \(TuneSpec.Search.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), found \(JSONEscaping.quoted(text))",
            at: searchItem)
        }
      }
      let trialsItem = o.member("trials")
      let trials = o.optional("trials", in: TuneSpec.trialRange, default: TuneSpec.defaultTrials)
      if search == .grid, let trialsItem {
        o.json.report("\"trials\" applies to random and halving searches; a grid tries every combination", at: trialsItem)
      }
      let etaItem = o.member("eta")
      let eta = o.optional("eta", in: 2...100, default: TuneSpec.defaultEta)
      if search != .halving, let etaItem {
        o.json.report("\"eta\" applies only to \"search\": \"halving\"", at: etaItem)
      }
      var metric = TuneSpec.defaultMetric
      if let metricItem = o.optional("metric"), let text = o.json.requireString(metricItem) {
        if Self.tunableMetrics.contains(text) {
          metric = text
        } else {
          o.json.report(
            "expected a metric where higher is better (\(Self.tunableMetrics.joined(separator: ", "))), found \(JSONEscaping.quoted(text))",
            at: metricItem)
        }
      }
      var parameters: [TuneSpec.Parameter] = []
      if let parametersItem = o.require("parameters"), let object = o.json.requireObject(parametersItem) {
        if object.members.isEmpty { o.json.report("expected at least one parameter to tune", at: parametersItem) }
        for member in object.members {
          let memberItem = JSONItem(member.node, path: JSONDecoding.path(object.path, key: member.key))
          guard let spec = specs.first(where: { $0.name == member.key }) else {
            let known = specs.map(\.name)
            o.json.report(
              "strategy '\(strategy)' has no parameter \(JSONEscaping.quoted(member.key))"
                + (known.isEmpty ? " (it takes none)" : " (known: \(known.joined(separator: ", ")))"),
              at: member.keyOffset, path: object.path)
            continue
          }
          if fixed.contains(member.key) {
            o.json.report(
              "\(JSONEscaping.quoted(member.key)) is both fixed in \"parameters\" and tuned here: remove one",
              at: member.keyOffset, path: object.path)
            continue
          }
          if let p = readTuneParameter(memberItem, spec: spec, search: search, strategy: strategy, &o.json) {
            parameters.append(p)
          }
        }
      }
      guard o.isClean else { return nil }
      return TuneSpec(parameters: parameters, search: search, trials: trials, metric: metric, eta: eta)
    }
  }

  /// One tuned parameter: a list of values for a grid, `{"min", "max", "scale"}` else.
  private func readTuneParameter(
    _ item: JSONItem, spec: StrategyParameterSpec, search: TuneSpec.Search, strategy: String,
    _ json: inout JSONDecoding
  ) -> TuneSpec.Parameter? {
    func value(_ item: JSONItem, _ json: inout JSONDecoding) -> Double? {
      Self.parameterValue(item, spec: spec, strategy: strategy, &json)
    }
    if search == .grid {
      guard case .array = item.value else {
        json.report("a grid takes a list of values, e.g. [0, 7, 14], found \(json.found(item))", at: item)
        return nil
      }
      guard let items = json.requireArray(item) else { return nil }
      if items.isEmpty { json.report("expected at least one value", at: item) }
      let values = items.compactMap { value($0, &json) }
      guard values.count == items.count, let low = values.min(), let high = values.max() else { return nil }
      return TuneSpec.Parameter(name: spec.name, values: values, range: low...high, logScale: false, integer: spec.integer)
    }
    return json.decodeObject(item) { o in
      let low = o.require("min") { item, json in value(item, &json) }
      let high = o.require("max") { item, json in value(item, &json) }
      var logScale = false
      if let scaleItem = o.optional("scale"), let text = o.json.requireString(scaleItem) {
        switch text {
        case "linear": logScale = false
        case "log": logScale = true
        default: o.json.report("expected \"linear\" or \"log\", found \(JSONEscaping.quoted(text))", at: scaleItem)
        }
      }
      guard let low, let high else { return nil }
      guard low <= high else {
        o.json.report("min (\(NumberFormat.format(low))) is greater than max (\(NumberFormat.format(high)))", at: o.item)
        return nil
      }
      if logScale && low <= 0 {
        o.json.report("\"scale\": \"log\" needs min > 0, found \(NumberFormat.format(low))", at: o.item)
        return nil
      }
      guard o.isClean else { return nil }
      return TuneSpec.Parameter(name: spec.name, values: [], range: low...high, logScale: logScale, integer: spec.integer)
    }
  }

  /// Reports each tuned strategy point whose experiment has a source without a
  /// validation window: its parameters would be chosen on the windows reported.
  func checkTuningSources(_ tuned: [JSONItem], sources: [SourceSpec], _ json: inout JSONDecoding) {
    guard let item = tuned.first,
      let source = sources.first(where: { spec in
        guard case .log(let log) = spec.input, let split = log.split else { return true }
        return !split.split.points.contains("validation")
      })
    else { return }
    let why: String
    if case .log(let log) = source.input, log.split != nil {
      why = "its split has no validation window"
    } else {
      why = source.kind == "log" ? "it has no split" : "a scenario source has no time split"
    }
    json.report(
      "cannot tune: source '\(source.name)' has no validation window (\(why)). Tuning chooses parameters on the validation window and reports them on test; choosing on the reported windows would leak. Give every source a \"split\" with a \"validation\" window",
      at: item)
  }
}
