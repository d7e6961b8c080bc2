import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

extension ConfigReader {
  /// Every strategy of `registry` with its default parameters, in registration order,
  /// but those that need an input beyond the log or scenario (`StrategyInfo.needs`:
  /// `scores`, `context-mfu`), which sources may lack: listed by name only.
  static func allStrategies(_ registry: StrategyRegistry) -> [StrategyChoice] {
    registry.entries.filter { $0.type.info.needs.isEmpty }.compactMap { entry in
      guard
        let parameters = try? StrategyParameters(
          specs: entry.type.parameterSpecs, given: [], strategy: entry.type.name)
      else { return nil }
      return try? StrategyChoice(entry, parameters: parameters)
    }
  }

  /// A strategy point as the config writes it: the choice, and its `tune` with where
  /// that is written.
  struct StrategyPoint {
    var choice: StrategyChoice
    var tune: (spec: TuneSpec, item: JSONItem)?
  }

  /// The `strategies` list expanded into strategy points, names looked up in the reader's
  /// registry; all of its strategies when the key is absent; nil after a problem.
  func readStrategies(_ top: inout JSONObjectReader) -> [StrategyPoint]? {
    guard let list = top.optional("strategies") else {
      return Self.allStrategies(registry).map { StrategyPoint(choice: $0) }
    }
    return readStrategies(list, &top.json)
  }

  /// The strategy points of the `strategies` list at `list`; nil after a problem.
  private func readStrategies(_ list: JSONItem, _ json: inout JSONDecoding) -> [StrategyPoint]? {
    guard let items = json.requireArray(list) else { return nil }
    if items.isEmpty { json.report("expected at least one strategy", at: list) }
    var points: [(point: StrategyPoint, item: JSONItem)] = []
    var clean = true
    for item in items {
      switch item.value {
      case .string(let text):
        do {
          points.append((StrategyPoint(choice: try registry.parse(text)), item))
        } catch {
          json.report("\(error)", at: item)
          clean = false
        }
      case .object:
        if let expanded = json.decodeObject(item, { o in readStrategyObject(&o) }) {
          points += expanded.map { ($0, item) }
        } else {
          clean = false
        }
      default:
        json.report(
          "expected a strategy (\"mfu\", \"hour-of-week:half-life-days=7\") or an object with \"name\" and \"parameters\", found \(json.found(item))",
          at: item)
        clean = false
      }
    }
    // A tuned point's parameters are only where its search starts: the batch checks the
    // chosen ones (`Tuner.tune`).
    for (i, (point, item)) in points.enumerated() where point.tune == nil {
      let descriptor = point.choice.descriptor
      if let earlier = points[..<i].first(where: { $0.point.tune == nil && $0.point.choice.descriptor == descriptor }) {
        let also = earlier.item.path == item.path ? "" : " (also \(earlier.item.path))"
        json.report("strategy \(descriptor) is listed twice\(also)", at: item)
        clean = false
      }
    }
    return clean ? points.map(\.point) : nil
  }

  /// `{"name": "hour-of-week", "parameters": {"half-life-days": [0, 7]}}`: one point per
  /// combination of the parameter values, the last parameter varying fastest. With
  /// `"tune"` (`readTune`), one point whose `parameters` are fixed values (not lists)
  /// and the base of the tuned ones.
  private func readStrategyObject(_ o: inout JSONObjectReader) -> [StrategyPoint]? {
    let nameItem = o.require("name")
    let parametersItem = o.optional("parameters")
    let tuneItem = o.optional("tune")
    guard let nameItem, let name = o.json.requireString(nameItem) else { return nil }
    let entry: StrategyRegistry.Entry
    do {
      entry = try registry.entry(named: name)
    } catch {
      o.json.report("\(error)", at: nameItem)
      return nil
    }
    let type = entry.type
    var axes: [(name: String, values: [Double])] = []
    var clean = true
    if let parametersItem, let parameters = o.json.requireObject(parametersItem) {
      for member in parameters.members {
        guard let spec = type.parameterSpecs.first(where: { $0.name == member.key }) else {
          let known = type.parameterSpecs.map(\.name)
          o.json.report(
            "strategy '\(name)' has no parameter \(JSONEscaping.quoted(member.key))"
              + (known.isEmpty ? " (it takes none)" : " (known: \(known.joined(separator: ", ")))"),
            at: member.keyOffset, path: parameters.path)
          clean = false
          continue
        }
        let valuesItem = JSONItem(member.node, path: JSONDecoding.path(parameters.path, key: member.key))
        let values = o.json.sweep(valuesItem) { valueItem, json in
          Self.parameterValue(valueItem, spec: spec, strategy: name, &json)
        }
        guard !values.isEmpty else {
          clean = false
          continue
        }
        if values.count < (member.node.value.arrayValue?.count ?? 1) { clean = false }
        axes.append((member.key, values.map(\.value)))
      }
    }
    var tune: (spec: TuneSpec, item: JSONItem)?
    if let tuneItem {
      if let sweep = axes.first(where: { $0.values.count > 1 }), let parametersItem {
        o.json.report(
          "a tuned strategy cannot also be swept: give \(JSONEscaping.quoted(sweep.name)) one value or tune it", at: parametersItem)
        clean = false
      }
      if let spec = readTune(tuneItem, strategy: name, specs: type.parameterSpecs, fixed: axes.map(\.name), &o.json) {
        tune = (spec, tuneItem)
      } else {
        clean = false
      }
    }
    guard clean else { return nil }
    var choices: [StrategyPoint] = []
    var index = Array(repeating: 0, count: axes.count)
    while true {
      let given = axes.enumerated().map { a, axis in (axis.name, axis.values[index[a]]) }
      do {
        let parameters = try StrategyParameters(
          specs: type.parameterSpecs, given: given, strategy: name)
        choices.append(StrategyPoint(choice: try StrategyChoice(entry, parameters: parameters), tune: tune))
      } catch {
        o.json.report("\(error)", at: o.item)
        return nil
      }
      var a = axes.count - 1
      while a >= 0 {
        index[a] += 1
        if index[a] < axes[a].values.count { break }
        index[a] = 0
        a -= 1
      }
      if a < 0 { break }
    }
    return choices
  }

  /// The number at `item` as a value of parameter `spec` of `strategy` (in its range,
  /// whole when it must be); reports the problem at `item` and gives nil otherwise.
  static func parameterValue(
    _ item: JSONItem, spec: StrategyParameterSpec, strategy: String, _ json: inout JSONDecoding
  ) -> Double? {
    guard let value = json.requireDouble(item) else { return nil }
    do {
      _ = try StrategyParameters(specs: [spec], given: [(spec.name, value)], strategy: strategy)
    } catch {
      json.report("\(error)", at: item)
      return nil
    }
    return value
  }
}
