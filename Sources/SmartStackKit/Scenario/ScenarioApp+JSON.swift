// Reading apps, reload settings and suggestions (docs/scenario-format.md, "App").

extension ScenarioApp {
  static let keys = ["id", "kind", "intent", "parameters", "timeline", "reload", "suggestion"]

  /// Reads one app; nil after reporting a problem that leaves no usable value.
  static func decode(_ item: JSONItem, _ json: inout JSONDecoding, zone: ZoneRules) -> ScenarioApp?
  {
    guard let object = json.requireObject(item) else { return nil }
    json.rejectUnknownKeys(object, allowed: keys)
    var valid = true
    let id = json.requireString(object, "id")
    if let id, id.isEmpty, let idItem = object["id"] {
      json.report("expected a non-empty app id", at: idItem)
      valid = false
    }
    let kind = json.optionalString(object, "kind")
    if let kind, kind.isEmpty, let kindItem = object["kind"] {
      json.report("expected a non-empty kind (or leave \"kind\" out to use the id)", at: kindItem)
      valid = false
    }
    let intent = json.optionalString(object, "intent")
    if let intent, intent.isEmpty, let intentItem = object["intent"] {
      json.report("expected a non-empty intent name (or leave \"intent\" out)", at: intentItem)
      valid = false
    }
    let parameters = json.optionalStringMembers(object, "parameters") ?? []
    var timeline: TimelineSpec? = nil
    if let timelineItem = json.optional(object, "timeline") {
      timeline = TimelineSpec.decode(timelineItem, &json, zone: zone)
      if timeline == nil { valid = false }
    }
    var reload = ReloadSpec()
    if let reloadItem = json.optional(object, "reload") {
      if let value = ReloadSpec.decode(reloadItem, &json) { reload = value } else { valid = false }
    }
    guard valid, let id else { return nil }
    var app = ScenarioApp(
      id: id, kind: kind, intent: intent,
      parameters: parameters.map { Parameter($0.key, $0.value) },
      timeline: timeline, reload: reload)
    if let suggestionItem = json.optional(object, "suggestion") {
      guard let suggestion = SuggestionSpec.decode(suggestionItem, &json, app: app, zone: zone)
      else {
        return nil
      }
      app.suggestion = suggestion
    }
    return app
  }
}

extension ReloadSpec {
  enum PolicyName: String, CaseIterable {
    case atEnd, after, never
  }

  /// `{"policy": "atEnd" | "after" | "never", "minutes": …, "horizonHours": …,
  /// "onEvent": …, "onOpen": …}`.
  static func decode(_ item: JSONItem, _ json: inout JSONDecoding) -> ReloadSpec? {
    guard let object = json.requireObject(item) else { return nil }
    json.rejectUnknownKeys(
      object, allowed: ["policy", "minutes", "horizonHours", "onEvent", "onOpen"])
    var spec = ReloadSpec()
    var valid = true
    let name = json.optionalCase(object, "policy", as: PolicyName.self) ?? .atEnd
    let minutesItem = json.optional(object, "minutes")
    switch name {
    case .atEnd: spec.policy = .atEnd
    case .never: spec.policy = .never
    case .after:
      if let minutesItem {
        if let minutes = json.requireDouble(minutesItem, in: 1...10_080) {
          spec.policy = .after(minutes: minutes)
        } else {
          valid = false
        }
      } else {
        json.report(
          "policy \"after\" needs \"minutes\" (the time from one reload to the next)", at: item)
        valid = false
      }
    }
    if name != .after, let minutesItem {
      json.report("\"minutes\" only applies to policy \"after\"", at: minutesItem)
      valid = false
    }
    spec.horizonHours = json.number(object, "horizonHours", in: 0...720, default: 24)
    spec.onEvent = json.flag(object, "onEvent", default: true)
    spec.onOpen = json.flag(object, "onOpen", default: false)
    return valid ? spec : nil
  }
}

extension SuggestionSpec {
  static let keys = [
    "id", "kind", "configuration", "windows", "predicted", "predictedShare", "afterEventMinutes",
  ]

  /// Reads an app's `suggestion`; the widget defaults to the app's kind with the app's
  /// parameters as configuration, id `APP-suggested`.
  static func decode(
    _ item: JSONItem, _ json: inout JSONDecoding, app: ScenarioApp, zone: ZoneRules
  ) -> SuggestionSpec? {
    guard let object = json.requireObject(item) else { return nil }
    json.rejectUnknownKeys(object, allowed: keys)
    var valid = true
    var names = ["\(app.id)-suggested", app.kind]  // id, kind
    for (index, key) in ["id", "kind"].enumerated() {
      guard let text = json.optionalString(object, key) else { continue }
      if text.isEmpty, let keyItem = object[key] {
        json.report("expected a non-empty \(key)", at: keyItem)
        valid = false
      }
      names[index] = text
    }
    let (id, kind) = (names[0], names[1])
    let configuration =
      json.optionalStringMembers(object, "configuration")?.map { Parameter($0.key, $0.value) }
      ?? app.parameters
    var windows: [TimeWindow] = []
    for windowItem in json.optionalArray(object, "windows") ?? [] {
      guard let windowObject = json.requireObject(windowItem) else {
        valid = false
        continue
      }
      json.rejectUnknownKeys(windowObject, allowed: ["start", "end"])
      let start = json.require(windowObject, "start").flatMap { json.instant($0, zone: zone) }
      let end = json.require(windowObject, "end").flatMap { json.instant($0, zone: zone) }
      guard let start, let end else {
        valid = false
        continue
      }
      if end <= start {
        json.report("the window ends at or before its start", at: windowObject["end"] ?? windowItem)
        valid = false
        continue
      }
      windows.append(TimeWindow(start: start, end: end))
    }
    let afterEvent = json.optionalDouble(object, "afterEventMinutes", in: 1...1_440)
    // An INRelevantShortcut with no relevance providers lets the system choose: predicted.
    let predicted = json.flag(
      object, "predicted", default: windows.isEmpty && !object.contains("afterEventMinutes"))
    let share = json.number(object, "predictedShare", in: 0...1, default: 0.5)
    guard valid else { return nil }
    return SuggestionSpec(
      instance: WidgetInstance(id: id, kind: kind, configuration: configuration), windows: windows,
      predicted: predicted, predictedShare: share, afterEventMinutes: afterEvent)
  }
}
