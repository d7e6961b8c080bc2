import Foundation

/// A source point being built from sweep values.
struct SourceDraft {
  var log: LogInput?
  var scenario: ScenarioInput?
  var engine = EngineOptions()
  /// The `stack` value of this point, to locate the top:N-needs-a-warm-up problem.
  var stackItem: JSONItem?
}

/// One value of a swept key: its label text and how it sets the draft.
struct SweepPoint {
  var label: String
  var apply: (inout SourceDraft) -> Void
}

/// A key with its values (one value when the key is not swept).
struct SweepAxis {
  var key: String
  var points: [SweepPoint]
}

extension ConfigReader {
  /// The values of `key` in `object`: one for a single value, several for a list (a
  /// sweep); nil when the key is absent (or `null`, unless `allowNull`).
  mutating func sweep<T>(
    _ object: JSONObjectItem, _ key: String, allowNull: Bool = false,
    _ read: (inout ConfigReader, JSONItem) -> T?
  ) -> [(value: T, item: JSONItem)]? {
    guard let item = object[key] else { return nil }
    if item.value.isNull && !allowNull { return nil }
    if case .array = item.value {
      let elements = json.requireArray(item) ?? []
      if elements.isEmpty {
        json.report("an empty list sweeps over nothing: give at least one value", at: item)
      }
      var values: [(T, JSONItem)] = []
      for element in elements {
        if case .array = element.value {
          json.report("expected a single value in a sweep list, found an array", at: element)
        } else if let value = read(&self, element) {
          values.append((value, element))
        }
      }
      return values
    }
    guard let value = read(&self, item) else { return [] }
    return [(value, item)]
  }

  /// A file named in the config: resolved against the config's folder and checked to
  /// exist (reported at `item` when it does not).
  mutating func existingFile(_ item: JSONItem, _ written: String) -> ConfigPath? {
    guard !written.isEmpty else {
      json.report("expected a file name, found an empty string", at: item)
      return nil
    }
    let resolved = ExperimentConfig.resolve(written, in: folder)
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isFolder) else {
      let note = resolved == written ? "" : " (looked for \(resolved))"
      json.report("no such file \(JSONEscaping.quoted(written))\(note)", at: item)
      return nil
    }
    if isFolder.boolValue {
      json.report("\(JSONEscaping.quoted(written)) is a folder, not a file", at: item)
      return nil
    }
    return ConfigPath(written: written, resolved: resolved)
  }

  // MARK: - Engine

  /// The engine keys as sweep axes (absent keys keep `EngineOptions()` defaults).
  mutating func readEngine(_ top: JSONObjectItem) -> [SweepAxis] {
    guard let engine = json.optionalObject(top, "engine") else { return [] }
    json.rejectUnknownKeys(engine, allowed: ExperimentConfig.engineKeys)
    var axes: [SweepAxis] = []
    if let values = sweep(
      engine, "relevanceThreshold", { r, item in r.json.requireDouble(item, in: 0...1) })
    {
      axes.append(
        SweepAxis(
          key: "relevanceThreshold",
          points: values.map { v in
            SweepPoint(label: NumberFormat.format(v.value)) {
              $0.engine.relevanceThreshold = v.value
            }
          }))
    }
    if let values = sweep(
      engine, "normaliserScope",
      { r, item in
        r.json.requireCase(item, as: NormaliserScopeName.self)
      })
    {
      axes.append(
        SweepAxis(
          key: "normaliserScope",
          points: values.map { v in
            SweepPoint(label: v.value.rawValue) { $0.engine.normaliserScope = v.value.scope }
          }))
    }
    if let values = sweep(
      engine, "normaliserWindowDays", allowNull: true,
      { r, item -> Int?? in
        if item.value.isNull { return .some(nil) }
        return r.json.requireInteger(item, in: 1...Scenario.maximumDays).map { .some($0) }
      })
    {
      axes.append(
        SweepAxis(
          key: "normaliserWindowDays",
          points: values.map { v in
            SweepPoint(label: v.value.map(String.init) ?? "all") {
              $0.engine.normaliserWindow = v.value.map { .days($0) } ?? .all
            }
          }))
    }
    return axes
  }

  // MARK: - Sources

  /// Reads one source and expands its sweeps: its base name, the item naming it, and
  /// the points. nil when it is not an object.
  mutating func readSource(
    _ item: JSONItem, engineAxes: [SweepAxis]
  ) -> (String, JSONItem, [SourceSpec])? {
    guard let object = json.requireObject(item) else { return nil }
    let hasLog = object.contains("log")
    let hasScenario = object.contains("scenario")
    if hasLog && hasScenario {
      json.report(
        "give either \"log\" or \"scenario\", not both", at: object.offset, path: object.path)
      return nil
    }
    if !hasLog && !hasScenario {
      json.report(
        "missing required key \"log\" or \"scenario\" (a donation log or a scenario file)",
        at: object.offset, path: object.path)
      return nil
    }
    var draft = SourceDraft()
    var axes: [SweepAxis] = []
    var pathItem: JSONItem
    var baseName: String
    if hasLog {
      json.rejectUnknownKeys(object, allowed: ExperimentConfig.logSourceKeys)
      pathItem = object["log"]!
      let written = json.requireString(pathItem)
      let log = written.flatMap { existingFile(pathItem, $0) }
      baseName = ExperimentConfig.baseName(written ?? "log")
      draft.log = LogInput(log: log ?? ConfigPath(written: "", resolved: ""))
      if let format = json.optionalCase(object, "format", as: DonationLogFormat.self) {
        draft.log?.format = format
      }
      axes += readLogAxes(object)
    } else {
      json.rejectUnknownKeys(object, allowed: ExperimentConfig.scenarioSourceKeys)
      pathItem = object["scenario"]!
      let written = json.requireString(pathItem)
      let scenario = written.flatMap { existingFile(pathItem, $0) }
      baseName = ExperimentConfig.baseName(written ?? "scenario")
      draft.scenario = ScenarioInput(scenario: scenario ?? ConfigPath(written: "", resolved: ""))
      if let values = sweep(
        object, "days", { r, item in r.json.requireInteger(item, in: 1...Scenario.maximumDays) })
      {
        axes.append(
          SweepAxis(
            key: "days",
            points: values.map { v in
              SweepPoint(label: String(v.value)) { $0.scenario?.days = v.value }
            }))
      }
    }
    var nameItem = pathItem
    if let item = object["name"], !item.value.isNull, let text = json.requireString(item) {
      nameItem = item
      if text.isEmpty {
        json.report("expected a non-empty name", at: item)
      } else if let bad = text.unicodeScalars.first(where: {
        $0 == "|" || $0.value < 0x20 || $0 == "[" || $0 == "]"
      }) {
        json.report(
          "a source name may not contain \(bad.value < 0x20 ? "control characters" : "'\(bad)'") (it is part of run ids)",
          at: item)
      } else {
        baseName = text
      }
    }
    axes += engineAxes

    // The cartesian product, last axis fastest.
    var points: [SourceSpec] = []
    var index = Array(repeating: 0, count: axes.count)
    let location = location(object)
    if axes.contains(where: { $0.points.isEmpty }) { return (baseName, nameItem, []) }
    var reportedTopWarmup: Set<Int> = []
    while true {
      var point = draft
      var labels: [String] = []
      for (a, axis) in axes.enumerated() {
        let value = axis.points[index[a]]
        value.apply(&point)
        if axis.points.count > 1 { labels.append("\(axis.key)=\(value.label)") }
      }
      let name = labels.isEmpty ? baseName : baseName + "[" + labels.joined(separator: ";") + "]"
      if let log = point.log {
        if case .top(let n) = log.stack, log.warmupDays <= 0 {
          let item = point.stackItem ?? pathItem
          if reportedTopWarmup.insert(item.offset).inserted {
            json.report(
              "stack \"top:\(n)\" chooses each person's kinds from a warm-up: give \"warmupDays\" > 0",
              at: item)
          }
        }
        points.append(
          SourceSpec(name: name, input: .log(log), engine: point.engine, location: location))
      } else if let scenario = point.scenario {
        points.append(
          SourceSpec(
            name: name, input: .scenario(scenario), engine: point.engine, location: location))
      }
      // Advance the odometer.
      var a = axes.count - 1
      while a >= 0 {
        index[a] += 1
        if index[a] < axes[a].points.count { break }
        index[a] = 0
        a -= 1
      }
      if a < 0 { break }
    }
    return (baseName, nameItem, points)
  }

  /// The sweepable keys of a log source, in expansion order.
  mutating func readLogAxes(_ object: JSONObjectItem) -> [SweepAxis] {
    var axes: [SweepAxis] = []
    if let values = sweep(object, "visits", { r, item in r.readVisits(item) }) {
      axes.append(
        SweepAxis(
          key: "visits",
          points: values.map { v in
            SweepPoint(label: v.item.value.stringValue ?? "") { $0.log?.visits = v.value }
          }))
    }
    if let values = sweep(
      object, "horizon", { r, item in r.json.requireDouble(item, in: 0...31_622_400) })
    {
      axes.append(
        SweepAxis(
          key: "horizon",
          points: values.map { v in
            SweepPoint(label: NumberFormat.format(v.value)) { $0.log?.horizonSeconds = v.value }
          }))
    }
    if let values = sweep(object, "stack", { r, item in r.readStack(item) }) {
      axes.append(
        SweepAxis(
          key: "stack",
          points: values.map { v in
            SweepPoint(label: v.item.value.stringValue ?? "") {
              $0.log?.stack = v.value
              $0.stackItem = v.item
            }
          }))
    }
    if let values = sweep(
      object, "warmupDays", { r, item in r.json.requireDouble(item, in: 0...36_500) })
    {
      axes.append(
        SweepAxis(
          key: "warmupDays",
          points: values.map { v in
            SweepPoint(label: NumberFormat.format(v.value)) { $0.log?.warmupDays = v.value }
          }))
    }
    if let values = sweep(
      object, "timezone",
      { r, item -> String? in
        guard let text = r.json.requireString(item) else { return nil }
        guard ZoneRules(identifier: text) != nil else {
          r.json.report(
            "unknown time zone \(JSONEscaping.quoted(text)) (use an IANA name such as \"Europe/Berlin\", or \"UTC\")",
            at: item)
          return nil
        }
        return text
      })
    {
      axes.append(
        SweepAxis(
          key: "timezone",
          points: values.map { v in SweepPoint(label: v.value) { $0.log?.timezone = v.value } }))
    }
    if let values = sweep(
      object, "timelines",
      { r, item -> ConfigPath? in
        guard let text = r.json.requireString(item) else { return nil }
        return r.existingFile(item, text)
      })
    {
      axes.append(
        SweepAxis(
          key: "timelines",
          points: values.map { v in
            SweepPoint(label: v.value.written) { $0.log?.timelines = v.value }
          }))
    }
    return axes
  }

  /// `"donations"`, `"sessions:MINUTES"` or a visit log file (`VisitSource.parse`).
  mutating func readVisits(_ item: JSONItem) -> LogInput.Visits? {
    switch parsed(item, VisitSource.parse) {
    case nil: return nil
    case .donations: return .donations
    case .sessions(let minutes): return .sessions(gapMinutes: minutes)
    case .file(let path): return existingFile(item, path).map { .file($0) }
    }
  }

  /// `"all"`, `"top:N"` or a stack file (`StackSource.parse`).
  mutating func readStack(_ item: JSONItem) -> LogInput.Stack? {
    switch parsed(item, StackSource.parse) {
    case nil: return nil
    case .all: return .all
    case .top(let n): return .top(n)
    case .file(let path): return existingFile(item, path).map { .file($0) }
    }
  }

  /// The string at `item` read by `parse`, or nil after reporting a value that is not a
  /// string or that `parse` refuses: `expected "top:N" with a whole number N in 1...1000,
  /// found "top:0"`.
  private mutating func parsed<Source>(
    _ item: JSONItem, _ parse: (String) throws(SourceSpellingError) -> Source
  ) -> Source? {
    guard let text = json.requireString(item) else { return nil }
    do {
      return try parse(text)
    } catch {
      json.report(
        "expected \"\(error.form)\" with \(error.requirement), found \(JSONEscaping.quoted(text))",
        at: item)
      return nil
    }
  }
}

/// The config's names for `PercentileNormaliser.Scope`.
enum NormaliserScopeName: String, CaseIterable {
  case instance, kind
  var scope: PercentileNormaliser.Scope { self == .instance ? .instance : .kind }
}
