import SmartStackBase
import SmartStackData
import SmartStackEngine

// Reading apps, reload settings and suggestions (docs/scenario-format.md, "App").

extension ScenarioApp {
  /// Reads one app; nil after reporting a problem that leaves no usable value (a wrong
  /// `parameters` value is reported but leaves the app usable).
  static func decode(_ item: JSONItem, _ json: inout JSONDecoding, zone: ZoneRules) -> ScenarioApp?
  {
    json.decodeObject(item) { o in
      var valid = true
      let id = o.require("id", as: String.self, where: { !$0.isEmpty }) { _ in
        "expected a non-empty app id"
      }
      let kind = o.optionalNonEmpty(
        "kind", "expected a non-empty kind (or leave \"kind\" out to use the id)", valid: &valid)
      let intent = o.optionalNonEmpty(
        "intent", "expected a non-empty intent name (or leave \"intent\" out)", valid: &valid)
      let parameters = o.optionalStringMembers("parameters") ?? []
      var timeline: TimelineSpec? = nil
      if let timelineItem = o.optional("timeline") {
        timeline = TimelineSpec.decode(timelineItem, &o.json, zone: zone)
        if timeline == nil { valid = false }
      }
      var reload = ReloadSpec()
      if let reloadItem = o.optional("reload") {
        if let value = ReloadSpec(json: reloadItem, in: &o.json) {
          reload = value
        } else {
          valid = false
        }
      }
      let suggestionItem = o.optional("suggestion")
      guard valid, let id else { return nil }
      var app = ScenarioApp(
        id: id, kind: kind, intent: intent,
        parameters: parameters.map { Parameter($0.key, $0.value) },
        timeline: timeline, reload: reload)
      if let suggestionItem {
        guard let suggestion = SuggestionSpec.decode(suggestionItem, &o.json, app: app, zone: zone)
        else {
          return nil
        }
        app.suggestion = suggestion
      }
      return app
    }
  }
}

extension JSONObjectReader {
  /// The string at `key`, or nil when it is absent or `null` (or not a string:
  /// reported). An empty string is reported as `message`, at the value, clears `valid`
  /// and reads as nil.
  fileprivate mutating func optionalNonEmpty(_ key: String, _ message: String, valid: inout Bool)
    -> String?
  {
    let text = optional(key, as: String.self)
    guard text == "", let item = object[key] else { return text }
    json.report(message, at: item)
    valid = false
    return nil
  }
}

extension ReloadSpec: JSONObjectDecodable {
  enum PolicyName: String, CaseIterable, JSONDecodable {
    case atEnd, after, never
  }

  /// `{"policy": "atEnd" | "after" | "never", "minutes": …, "horizonHours": …,
  /// "onEvent": …, "onOpen": …}`; `minutes` is required by, and only allowed with,
  /// policy `after`.
  public static func read(_ o: inout JSONObjectReader) -> ReloadSpec? {
    var spec = ReloadSpec()
    var valid = true
    let name = o.optional("policy", as: PolicyName.self) ?? .atEnd
    let minutesItem = o.optional("minutes")
    switch name {
    case .atEnd: spec.policy = .atEnd
    case .never: spec.policy = .never
    case .after:
      if let minutesItem {
        if let minutes = o.json.requireDouble(minutesItem, in: 1...10_080) {
          spec.policy = .after(minutes: minutes)
        } else {
          valid = false
        }
      } else {
        o.json.report(
          "policy \"after\" needs \"minutes\" (the time from one reload to the next)", at: o.item)
        valid = false
      }
    }
    if name != .after, let minutesItem {
      o.json.report("\"minutes\" only applies to policy \"after\"", at: minutesItem)
      valid = false
    }
    spec.horizonHours = o.optional("horizonHours", in: 0...720, default: 24)
    spec.onEvent = o.optional("onEvent", default: true)
    spec.onOpen = o.optional("onOpen", default: false)
    return valid ? spec : nil
  }
}

extension SuggestionSpec {
  /// Reads an app's `suggestion`; the widget defaults to the app's kind with the app's
  /// parameters as configuration, id `APP-suggested`.
  static func decode(
    _ item: JSONItem, _ json: inout JSONDecoding, app: ScenarioApp, zone: ZoneRules
  ) -> SuggestionSpec? {
    json.decodeObject(item) { o in
      var valid = true
      let id =
        o.optionalNonEmpty("id", "expected a non-empty id", valid: &valid) ?? "\(app.id)-suggested"
      let kind = o.optionalNonEmpty("kind", "expected a non-empty kind", valid: &valid) ?? app.kind
      let configuration =
        o.optionalStringMembers("configuration")?.map { Parameter($0.key, $0.value) }
        ?? app.parameters
      var windows: [TimeWindow] = []
      for windowItem in o.optionalElements("windows") ?? [] {
        if let window = TimeWindow.decode(windowItem, &o.json, zone: zone) {
          windows.append(window)
        } else {
          valid = false
        }
      }
      // An INRelevantShortcut with no relevance providers lets the system choose: predicted.
      let predicted = o.optional(
        "predicted", default: windows.isEmpty && !o.has("afterEventMinutes"))
      let share = o.optional("predictedShare", in: 0...1, default: 0.5)
      let afterEvent = o.optional("afterEventMinutes", in: 1...1_440.0)
      guard valid else { return nil }
      return SuggestionSpec(
        instance: WidgetInstance(id: id, kind: kind, configuration: configuration),
        windows: windows, predicted: predicted, predictedShare: share,
        afterEventMinutes: afterEvent)
    }
  }
}

extension TimeWindow {
  /// `{"start": …, "end": …}`, ISO 8601 instants (local ones in `zone`), the end after
  /// the start.
  static func decode(_ item: JSONItem, _ json: inout JSONDecoding, zone: ZoneRules) -> TimeWindow? {
    json.decodeObject(item) { o in
      let start = o.require("start") { item, json in json.instant(item, zone: zone) }
      let end = o.require("end") { item, json in json.instant(item, zone: zone) }
      guard let start, let end else { return nil }
      guard end > start else {
        o.json.report("the window ends at or before its start", at: o.object["end"] ?? o.item)
        return nil
      }
      return TimeWindow(start: start, end: end)
    }
  }
}
