extension ConfigReader {
  /// Every strategy of `registry` with its default parameters, in registration order.
  static func allStrategies(_ registry: StrategyRegistry) -> [StrategyChoice] {
    registry.types.compactMap { type in
      guard
        let parameters = try? StrategyParameters(
          specs: type.parameterSpecs, given: [], strategy: type.name)
      else { return nil }
      return try? StrategyChoice(type: type, parameters: parameters)
    }
  }

  /// The `strategies` list expanded into strategy points, names looked up in the reader's
  /// registry; all of its strategies when the key is absent; nil after a problem.
  mutating func readStrategies(_ top: JSONObjectItem) -> [StrategyChoice]? {
    guard let list = top["strategies"], !list.value.isNull else {
      return Self.allStrategies(registry)
    }
    guard let items = json.requireArray(list) else { return nil }
    if items.isEmpty { json.report("expected at least one strategy", at: list) }
    var points: [(choice: StrategyChoice, item: JSONItem)] = []
    var clean = true
    for item in items {
      switch item.value {
      case .string(let text):
        do {
          points.append((try registry.parse(text), item))
        } catch {
          json.report("\(error)", at: item)
          clean = false
        }
      case .object:
        if let expanded = readStrategyObject(item) {
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
    for (i, point) in points.enumerated() {
      if let earlier = points[..<i].first(where: { $0.choice.descriptor == point.choice.descriptor }
      ) {
        let also = earlier.item.path == point.item.path ? "" : " (also \(earlier.item.path))"
        json.report("strategy \(point.choice.descriptor) is listed twice\(also)", at: point.item)
        clean = false
      }
    }
    return clean ? points.map(\.choice) : nil
  }

  /// `{"name": "hour-of-week", "parameters": {"half-life-days": [0, 7]}}`: one point per
  /// combination of the parameter values, the last parameter varying fastest.
  mutating func readStrategyObject(_ item: JSONItem) -> [StrategyChoice]? {
    guard let object = json.requireObject(item) else { return nil }
    json.rejectUnknownKeys(object, allowed: ["name", "parameters"])
    guard let nameItem = json.require(object, "name"), let name = json.requireString(nameItem)
    else {
      return nil
    }
    let type: any RankingStrategy.Type
    do {
      type = try registry.type(named: name)
    } catch {
      json.report("\(error)", at: nameItem)
      return nil
    }
    var axes: [(name: String, values: [Double])] = []
    var clean = true
    if let parameters = json.optionalObject(object, "parameters") {
      for member in parameters.members {
        guard let spec = type.parameterSpecs.first(where: { $0.name == member.key }) else {
          let known = type.parameterSpecs.map(\.name)
          json.report(
            "strategy '\(name)' has no parameter \(JSONEscaping.quoted(member.key))"
              + (known.isEmpty ? " (it takes none)" : " (known: \(known.joined(separator: ", ")))"),
            at: member.keyOffset, path: parameters.path)
          clean = false
          continue
        }
        let values = sweep(parameters, member.key) { r, valueItem -> Double? in
          guard let value = r.json.requireDouble(valueItem) else { return nil }
          do {
            _ = try StrategyParameters(specs: [spec], given: [(spec.name, value)], strategy: name)
          } catch {
            r.json.report("\(error)", at: valueItem)
            return nil
          }
          return value
        }
        guard let values, !values.isEmpty else {
          clean = false
          continue
        }
        if values.count < (member.node.value.arrayValue?.count ?? 1) { clean = false }
        axes.append((member.key, values.map(\.value)))
      }
    }
    guard clean else { return nil }
    var choices: [StrategyChoice] = []
    var index = Array(repeating: 0, count: axes.count)
    while true {
      let given = axes.enumerated().map { a, axis in (axis.name, axis.values[index[a]]) }
      do {
        let parameters = try StrategyParameters(
          specs: type.parameterSpecs, given: given, strategy: name)
        choices.append(try StrategyChoice(type: type, parameters: parameters))
      } catch {
        json.report("\(error)", at: item)
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
}
