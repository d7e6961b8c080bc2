import Foundation
import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// A source point being built from sweep values.
struct SourceDraft {
  var log: LogInput?
  var scenario: ScenarioInput?
  var engine = EngineOptions.toolkitDefaults
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
  /// Labelled even with one point (`split`: a point's label always says its window).
  var alwaysLabelled = false
}

extension JSONDecoding {
  /// The values at `item`: one for a single value, several for a list (a sweep), each
  /// read by `read`. An empty list and a list inside the list are reported; values
  /// `read` refuses (and reports) are left out.
  mutating func sweep<T>(_ item: JSONItem, _ read: (JSONItem, inout JSONDecoding) -> T?)
    -> [(value: T, item: JSONItem)]
  {
    guard case .array = item.value else {
      guard let value = read(item, &self) else { return [] }
      return [(value, item)]
    }
    let elements = requireArray(item) ?? []
    if elements.isEmpty {
      report("an empty list sweeps over nothing: give at least one value", at: item)
    }
    var values: [(T, JSONItem)] = []
    for element in elements {
      if case .array = element.value {
        report("expected a single value in a sweep list, found an array", at: element)
      } else if let value = read(element, &self) {
        values.append((value, element))
      }
    }
    return values
  }
}

extension JSONObjectReader {
  /// The values of the member `key` (see `JSONDecoding.sweep(_:_:)`); nil when the key
  /// is absent (or `null`, unless `allowNull`).
  mutating func sweep<T>(
    _ key: String, allowNull: Bool = false, _ read: (JSONItem, inout JSONDecoding) -> T?
  ) -> [(value: T, item: JSONItem)]? {
    guard let item = member(key), allowNull || !item.value.isNull else { return nil }
    return json.sweep(item, read)
  }
}

extension ConfigReader {
  /// A file named in the config: resolved against the config's folder and checked to
  /// exist (reported at `item` when it does not).
  func existingFile(_ item: JSONItem, _ written: String, _ json: inout JSONDecoding)
    -> ConfigPath?
  {
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

  /// The engine keys as sweep axes (absent keys keep `EngineOptions.toolkitDefaults`).
  func readEngine(_ top: inout JSONObjectReader) -> [SweepAxis] {
    top.optional("engine") { item, json in json.decodeObject(item, engineAxes) } ?? []
  }

  /// The axes of the `engine` object's keys.
  private func engineAxes(_ engine: inout JSONObjectReader) -> [SweepAxis] {
    var axes: [SweepAxis] = []
    if let values = engine.sweep("relevanceThreshold", { item, json in json.requireDouble(item, in: 0...1) }) {
      axes.append(
        SweepAxis(
          key: "relevanceThreshold",
          points: values.map { v in
            SweepPoint(label: NumberFormat.format(v.value)) {
              $0.engine.relevanceThreshold = v.value
            }
          }))
    }
    if let values = engine.sweep("normaliserScope", NormaliserScopeName.init(json:in:)) {
      axes.append(
        SweepAxis(
          key: "normaliserScope",
          points: values.map { v in
            SweepPoint(label: v.value.rawValue) { $0.engine.normaliserScope = v.value.scope }
          }))
    }
    if let values = engine.sweep(
      "normaliserWindowDays", allowNull: true,
      { item, json -> Int?? in
        if item.value.isNull { return .some(nil) }
        return json.requireInteger(item, in: 1...Scenario.maximumDays).map { .some($0) }
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
  /// the points; nil when it has both or neither of `log` and `scenario`. Its keys are
  /// looked up in the documented order: `name`, then the log's or the scenario's.
  func readSource(_ o: inout JSONObjectReader, engineAxes: [SweepAxis])
    -> (String, JSONItem, [SourceSpec])?
  {
    o.acceptComments()
    let hasLog = o.has("log")
    let hasScenario = o.has("scenario")
    if hasLog == hasScenario {
      o.json.report(
        hasLog
          ? "give either \"log\" or \"scenario\", not both"
          : "missing required key \"log\" or \"scenario\" (a donation log or a scenario file)",
        at: o.item)
      o.skipRest()
      return nil
    }
    let givenName = o.optional("name")
    var draft = SourceDraft()
    var axes: [SweepAxis] = []
    guard let pathItem = o.member(hasLog ? "log" : "scenario") else { return nil }
    let written = o.json.requireString(pathItem)
    let path =
      written.flatMap { existingFile(pathItem, $0, &o.json) }
      ?? ConfigPath(written: "", resolved: "")
    var baseName = ExperimentConfig.baseName(written ?? (hasLog ? "log" : "scenario"))
    if hasLog {
      draft.log = LogInput(log: path)
      if let format = o.optional("format", as: DonationLogFormat.self) {
        draft.log?.format = format
      }
      axes += readLogAxes(&o)
    } else {
      draft.scenario = ScenarioInput(scenario: path)
      if let values = o.sweep(
        "days", { item, json in json.requireInteger(item, in: 1...Scenario.maximumDays) })
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
    if let item = givenName, let text = o.json.requireString(item) {
      nameItem = item
      if text.isEmpty {
        o.json.report("expected a non-empty name", at: item)
      } else if let bad = text.unicodeScalars.first(where: {
        $0 == "|" || $0.value < 0x20 || $0 == "[" || $0 == "]"
      }) {
        o.json.report(
          "a source name may not contain \(bad.value < 0x20 ? "control characters" : "'\(bad)'") (it is part of run ids)",
          at: item)
      } else {
        baseName = text
      }
    }
    axes += engineAxes
    // The split varies fastest, so a rolling back-test's folds are adjacent points. The
    // command line's --split applies to a log source without its own, and agrees with
    // any it has.
    var split: (TimeSplit, ConfigLocation)? = nil
    if hasLog, let item = o.member("split"), !item.value.isNull, let own = readSplit(item, &o.json) {
      split = (own, location(item))
      if let cli = overrides.split, cli != own {
        o.json.report(
          "the source's split \(own.spelling) conflicts with --split \(cli.spelling): give the split in one place",
          at: item)
      }
    } else if hasLog, let cli = overrides.split {
      var at = location(pathItem)
      at.path += " (--split)"
      split = (cli, at)
    }
    if let (split, location) = split {
      axes.append(
        SweepAxis(
          key: "split",
          points: split.points.indices.map { i in
            SweepPoint(label: split.points[i]) {
              $0.log?.split = SplitPoint(split: split, index: i, location: location)
            }
          }, alwaysLabelled: true))
    }

    // The cartesian product, last axis fastest.
    var points: [SourceSpec] = []
    var index = Array(repeating: 0, count: axes.count)
    let location = location(o.object)
    if axes.contains(where: { $0.points.isEmpty }) { return (baseName, nameItem, []) }
    var reportedTopWarmup: Set<Int> = []
    while true {
      var point = draft
      var labels: [String] = []
      for (a, axis) in axes.enumerated() {
        let value = axis.points[index[a]]
        value.apply(&point)
        if axis.points.count > 1 || axis.alwaysLabelled { labels.append("\(axis.key)=\(value.label)") }
      }
      let name = labels.isEmpty ? baseName : baseName + "[" + labels.joined(separator: ";") + "]"
      if let log = point.log {
        if case .top(let n) = log.stack, log.warmupDays <= 0 {
          let item = point.stackItem ?? pathItem
          if reportedTopWarmup.insert(item.offset).inserted {
            o.json.report(
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
  func readLogAxes(_ o: inout JSONObjectReader) -> [SweepAxis] {
    var axes: [SweepAxis] = []
    if let values = o.sweep("visits", { item, json in readVisits(item, &json) }) {
      axes.append(
        SweepAxis(
          key: "visits",
          points: values.map { v in
            SweepPoint(label: v.item.value.stringValue ?? "") { $0.log?.visits = v.value }
          }))
    }
    if let values = o.sweep(
      "horizon", { item, json in json.requireDouble(item, in: 0...31_622_400) })
    {
      axes.append(
        SweepAxis(
          key: "horizon",
          points: values.map { v in
            SweepPoint(label: NumberFormat.format(v.value)) { $0.log?.horizonSeconds = v.value }
          }))
    }
    if let values = o.sweep("stack", { item, json in readStack(item, &json) }) {
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
    if let values = o.sweep(
      "warmupDays", { item, json in json.requireDouble(item, in: 0...36_500) })
    {
      axes.append(
        SweepAxis(
          key: "warmupDays",
          points: values.map { v in
            SweepPoint(label: NumberFormat.format(v.value)) { $0.log?.warmupDays = v.value }
          }))
    }
    if let values = o.sweep(
      "timezone",
      { item, json -> String? in
        guard let text = json.requireString(item) else { return nil }
        guard ZoneRules(identifier: text) != nil else {
          json.report(
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
    if let values = o.sweep(
      "timelines",
      { item, json -> ConfigPath? in
        guard let text = json.requireString(item) else { return nil }
        return existingFile(item, text, &json)
      })
    {
      axes.append(
        SweepAxis(
          key: "timelines",
          points: values.map { v in
            SweepPoint(label: v.value.written) { $0.log?.timelines = v.value }
          }))
    }
    if let values = o.sweep(
      "scores",
      { item, json -> ConfigPath? in
        guard let text = json.requireString(item) else { return nil }
        return existingFile(item, text, &json)
      })
    {
      axes.append(
        SweepAxis(
          key: "scores",
          points: values.map { v in
            SweepPoint(label: v.value.written) { $0.log?.scores = v.value }
          }))
    }
    if let values = o.sweep(
      "context",
      { item, json -> ConfigPath? in
        guard let text = json.requireString(item) else { return nil }
        return existingFile(item, text, &json)
      })
    {
      axes.append(
        SweepAxis(
          key: "context",
          points: values.map { v in
            SweepPoint(label: v.value.written) { $0.log?.context = v.value }
          }))
    }
    return axes
  }

  /// A log source's `split` (`TimeSplit`): its command-line spelling as a string, or an
  /// object `{"train": "A..B", "validation": "C..D", "test": "E..F"}`,
  /// `{"rolling": {"folds": K, "testDays": T}}` or `{"perPerson": [TRAIN, VALIDATION,
  /// TEST]}`. Problems are reported at the value they concern; nil after one.
  func readSplit(_ item: JSONItem, _ json: inout JSONDecoding) -> TimeSplit? {
    func checked(_ at: JSONItem, _ make: () throws(TimeSplitError) -> TimeSplit, _ json: inout JSONDecoding) -> TimeSplit? {
      do { return try make() } catch {
        json.report(error.message, at: at)
        return nil
      }
    }
    if case .string(let text) = item.value {
      return checked(item, { () throws(TimeSplitError) in try TimeSplit.parse(text) }, &json)
    }
    return json.decodeObject(item) { o -> TimeSplit? in
      let forms = ["rolling", "perPerson", "test"].filter { o.has($0) }
      if forms.count != 1 {
        o.json.report(
          forms.isEmpty
            ? "expected {\"train\": \"A..B\", \"validation\": \"C..D\", \"test\": \"E..F\"}, {\"rolling\": {\"folds\": K, \"testDays\": T}} or {\"perPerson\": [TRAIN, VALIDATION, TEST]}"
            : "give one kind of split: " + forms.map { "\"\($0)\"" }.joined(separator: " or "),
          at: o.item)
      }
      if let rolling = o.member("rolling") {
        return o.json.decodeObject(rolling) { r -> TimeSplit? in
          let folds = r.require("folds", in: TimeSplit.foldRange)
          let days = r.require("testDays", in: TimeSplit.testDayRange)
          guard let folds, let days, r.isClean, forms.count == 1 else { return nil }
          return checked(rolling.self, { () throws(TimeSplitError) in try TimeSplit.checkedRolling(folds: folds, testDays: days) }, &r.json)
        }
      }
      if let fractions = o.member("perPerson") {
        let values = (o.json.requireArray(fractions) ?? []).map { o.json.requireDouble($0, in: 0...1) }
        guard o.isClean, forms.count == 1 else { return nil }
        return checked(fractions, { () throws(TimeSplitError) in try TimeSplit.checkedPerPerson(values.map { $0 ?? .nan }) }, &o.json)
      }
      var windows: [TimeSplit.Dates?] = []
      for name in ["train", "validation", "test"] {
        guard let w = o.member(name) else {
          if name != "validation" { o.json.report("missing required key \"\(name)\"", at: o.item) }
          windows.append(nil)
          continue
        }
        guard let text = o.json.requireString(w) else {
          windows.append(nil)
          continue
        }
        do throws(TimeSplitError) { windows.append(try TimeSplit.Dates.parse(text, name: name)) } catch {
          o.json.report(error.message, at: w)
          windows.append(nil)
        }
      }
      guard o.isClean, forms.count == 1, let train = windows[0], let test = windows[2] else { return nil }
      return checked(o.item, { () throws(TimeSplitError) in try TimeSplit.checkedDates(train: train, validation: windows[1], test: test) }, &o.json)
    }
  }

  /// `"donations"`, `"sessions:MINUTES"` or a visit log file (`VisitSource.parse`).
  func readVisits(_ item: JSONItem, _ json: inout JSONDecoding) -> LogInput.Visits? {
    Self.parsed(item, &json, VisitSource.parse)?.compactMapFile { existingFile(item, $0, &json) }
  }

  /// `"all"`, `"top:N"` or a stack file (`StackSource.parse`).
  func readStack(_ item: JSONItem, _ json: inout JSONDecoding) -> LogInput.Stack? {
    Self.parsed(item, &json, StackSource.parse)?.compactMapFile { existingFile(item, $0, &json) }
  }

  /// The string at `item` read by `parse`, or nil after reporting a value that is not a
  /// string or that `parse` refuses: `expected "top:N" with a whole number N in 1...1000,
  /// found "top:0"`.
  private static func parsed<Source>(
    _ item: JSONItem, _ json: inout JSONDecoding,
    _ parse: (String) throws(SourceSpellingError) -> Source
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
enum NormaliserScopeName: String, CaseIterable, JSONDecodable {
  case instance, kind
  var scope: PercentileNormaliser.Scope { self == .instance ? .instance : .kind }
}
