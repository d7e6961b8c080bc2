// Reading a scenario file (docs/scenario-format.md). Every problem in the file is
// reported, each as `FILE:LINE:COLUMN: key.path: message`, and the read fails without a
// value when there is any.

extension Scenario {
  static let keys = [
    "name", "start", "days", "timezone", "seed", "people", "stack", "apps", "intents",
  ]

  /// Reads a scenario file.
  ///
  /// - Throws: `InputFileError` when the file cannot be read; `DiagnosticList` with every
  ///   problem found (up to `DiagnosticCollector.defaultLimit`).
  public static func read(path: String) throws -> Scenario {
    try read(bytes: FileIO.readBytes(path), file: path)
  }

  /// Reads a scenario from its bytes; `file` names it in diagnostics.
  ///
  /// - Throws: `DiagnosticList` with every problem found.
  /// - Complexity: O(n) in the file's size, plus O(apps × instances) matching checks.
  public static func read(bytes: [UInt8], file: String) throws -> Scenario {
    var json = JSONDecoding(file: file, bytes: bytes)
    guard let root = json.parseDocument(), let top = json.requireObject(root) else {
      try json.throwIfAny()
      throw DiagnosticList([
        Diagnostic(file: file, line: 1, column: 1, message: "expected a JSON object")
      ])
    }
    json.rejectUnknownKeys(top, allowed: keys)
    let name = json.optionalString(top, "name") ?? "scenario"

    var zone = ZoneRules.utc
    if let zoneItem = json.optional(top, "timezone"), let identifier = json.requireString(zoneItem)
    {
      if let rules = ZoneRules(identifier: identifier) {
        zone = rules
      } else {
        json.report(
          "unknown time zone \(JSONEscaping.quoted(identifier)) (expected an IANA name such as \"Europe/Berlin\")",
          at: zoneItem)
      }
    }
    let startDay = json.require(top, "start").flatMap { json.localDate($0) }
    let days = json.requireInteger(top, "days", in: 1...maximumDays)
    let lastDay = Instant.endOfSupportedRange.milliseconds / Instant.millisecondsPerDay
    if let startDay, let days, startDay + Int64(days) > lastDay, let daysItem = top["days"] {
      json.report("the simulation would run past 2100-12-31", at: daysItem)
    }
    let seed = json.optionalInteger(top, "seed", in: UInt64.min...UInt64.max) ?? 1

    // Apps first: routines and matching refer to them.
    let appItems = json.requireArray(top, "apps") ?? []
    if appItems.isEmpty, let appsItem = top["apps"], case .array = appsItem.value {
      json.report("expected at least one app", at: appsItem)
    }
    // Aligned with the items (an app without an id gets "", which no routine can name
    // since the empty key is refused there too).
    let appIDs = appItems.map { $0.node["id"]?.value.stringValue ?? "" }
    var apps: [ScenarioApp?] = []
    for (index, item) in appItems.enumerated() {
      var app = ScenarioApp.decode(item, &json, zone: zone)
      if let id = app?.id, let first = appIDs.firstIndex(of: id), first != index,
        let idItem = item.node["id"]
      {
        json.report(
          "duplicate app id \(JSONEscaping.quoted(id)) (first used by apps[\(first)])",
          at: JSONItem(idItem, path: JSONDecoding.path(item.path, key: "id")))
        app = nil
      }
      apps.append(app)
    }

    var catalog = IntentCatalog()
    if let intentsItem = json.optional(top, "intents") {
      catalog = IntentCatalog(json: intentsItem, in: &json) ?? catalog
    }
    let stack = json.require(top, "stack").flatMap { StackSettings.decode($0, &json) }

    var personas: [Persona] = []
    var total = 0
    for item in json.requireArray(top, "people") ?? [] {
      guard let persona = Persona.decode(item, &json, appIDs: appIDs) else { continue }
      if personas.contains(where: { $0.name == persona.name }), let nameItem = item.node["name"] {
        json.report(
          "duplicate persona name \(JSONEscaping.quoted(persona.name))",
          at: JSONItem(nameItem, path: JSONDecoding.path(item.path, key: "name")))
        continue
      }
      total += persona.count
      if total > maximumPeople {
        let countItem = item.node["count"].map {
          JSONItem($0, path: JSONDecoding.path(item.path, key: "count"))
        }
        json.report(
          "a scenario holds at most \(maximumPeople) people in all", at: countItem ?? item)
      }
      personas.append(persona)
    }
    if let peopleItem = top["people"], case .array(let elements) = peopleItem.value,
      elements.isEmpty
    {
      json.report("expected at least one persona", at: peopleItem)
    }

    guard let startDay, let days, let stack, apps.allSatisfy({ $0 != nil }) else {
      try json.throwIfAny()
      throw DiagnosticList([
        Diagnostic(file: file, line: 1, column: 1, message: "no scenario could be read")
      ])
    }
    let scenario = Scenario(
      file: file, name: name, startDay: startDay, days: days, zone: zone, seed: seed,
      personas: personas, stack: stack, apps: apps.compactMap { $0 }, catalog: catalog)
    scenario.checkWidgets(appItems: appItems, top: top, &json)
    try json.throwIfAny()
    return scenario
  }

  /// Cross-checks between apps and widgets: suggested widgets are new and match their
  /// app; no instance shows two apps' timelines; every timeline reaches some widget.
  private func checkWidgets(appItems: [JSONItem], top: JSONObjectItem, _ json: inout JSONDecoding) {
    func member(_ index: Int, _ key: String) -> JSONItem {
      let item = appItems[index]
      let path = JSONDecoding.path(item.path, key: key)
      return item.node[key].map { JSONItem($0, path: path) } ?? item
    }
    var ids = stack.instances.map(\.id)
    for (a, app) in apps.enumerated() {
      guard let suggestion = app.suggestion else { continue }
      let instance = suggestion.instance
      let item = member(a, "suggestion")
      if ids.contains(instance.id) {
        json.report(
          "the suggested widget's id \(JSONEscaping.quoted(instance.id)) is already used; give it another \"id\"",
          at: item)
      }
      ids.append(instance.id)
      if let same = stack.instances.first(where: {
        $0.kind == instance.kind && $0.configuration == instance.configuration
      }) {
        json.report(
          "the suggested widget is already in the stack as \(JSONEscaping.quoted(same.id)) (a suggestion inserts a widget the stack lacks)",
          at: item)
      }
      if !app.matches(instance, catalog: catalog) {
        json.report(
          "the suggested widget (kind \(JSONEscaping.quoted(instance.kind))) does not match the app's donations, so wanting the app could never be served by it",
          at: item)
      }
    }
    // Timelines: which app's timeline each instance shows.
    let all = stack.instances + apps.compactMap { $0.suggestion?.instance }
    var owner = [Int](repeating: -1, count: all.count)
    for (a, app) in apps.enumerated() where app.timeline != nil {
      var shown = false
      for (i, instance) in all.enumerated() where app.matches(instance, catalog: catalog) {
        shown = true
        if owner[i] >= 0 {
          json.report(
            "widget \(JSONEscaping.quoted(instance.id)) would show the timelines of apps \(JSONEscaping.quoted(apps[owner[i]].id)) and \(JSONEscaping.quoted(app.id)); give the apps parameters that tell their widgets apart",
            at: member(a, "timeline"))
        } else {
          owner[i] = a
        }
      }
      if !shown {
        json.report(
          "no widget shows this timeline: no stack instance or suggested widget matches app \(JSONEscaping.quoted(app.id)) (kind \(JSONEscaping.quoted(app.kind)))",
          at: member(a, "timeline"))
      }
    }
  }
}

extension StackSettings {
  static let keys = [
    "instances", "smartRotate", "widgetSuggestions", "developerMode", "swipeCooldownMinutes",
    "rotationLimit", "reloadBudget",
  ]

  /// Reads `stack`; instances have the shape of stack files (`StackSpec`).
  static func decode(_ item: JSONItem, _ json: inout JSONDecoding) -> StackSettings? {
    guard let object = json.requireObject(item) else { return nil }
    json.rejectUnknownKeys(object, allowed: keys)
    let instances = json.require(object, "instances").flatMap {
      WidgetInstance.decodeStack($0, &json)
    }
    var valid = instances != nil
    var stack = StackSettings(instances: instances ?? [])
    stack.smartRotate = json.flag(object, "smartRotate", default: true)
    stack.widgetSuggestions = json.flag(object, "widgetSuggestions", default: false)
    stack.developerMode = json.flag(object, "developerMode", default: false)
    stack.swipeCooldownMinutes = json.number(
      object, "swipeCooldownMinutes", in: 0...10_080, default: 60)
    if let limitItem = json.optional(object, "rotationLimit"),
      let limit = json.requireObject(limitItem)
    {
      json.rejectUnknownKeys(limit, allowed: ["perHour", "perDay"])
      stack.rotationLimit.perHour = json.integer(limit, "perHour", in: 1...10_000, default: 4)
      stack.rotationLimit.perDay = json.integer(limit, "perDay", in: 1...100_000, default: 40)
    }
    if let budgetItem = json.optional(object, "reloadBudget") {
      if let budget = ReloadBudget.decode(budgetItem, &json) {
        stack.reloadBudget = budget
      } else {
        valid = false
      }
    }
    return valid ? stack : nil
  }
}

extension ReloadBudget {
  /// `{"minimum": 40, "maximum": 70, "visitsForMaximum": 90, "spacingMinutes": 5,
  /// "systemPickMinutes": [15, 60]}`.
  static func decode(_ item: JSONItem, _ json: inout JSONDecoding) -> ReloadBudget? {
    guard let object = json.requireObject(item) else { return nil }
    json.rejectUnknownKeys(
      object,
      allowed: ["minimum", "maximum", "visitsForMaximum", "spacingMinutes", "systemPickMinutes"])
    var budget = ReloadBudget()
    var valid = true
    budget.minimum = json.number(object, "minimum", in: 0...100_000, default: 40)
    budget.maximum = json.number(
      object, "maximum", in: 0...100_000, default: max(70, budget.minimum))
    if budget.maximum < budget.minimum, let maximumItem = object["maximum"] ?? object["minimum"] {
      json.report(
        "the maximum budget (\(NumberFormat.format(budget.maximum))) is below the minimum (\(NumberFormat.format(budget.minimum)))",
        at: maximumItem)
      valid = false
    }
    budget.visitsForMaximum = json.number(
      object, "visitsForMaximum", in: 1...1_000_000, default: 90)
    budget.spacingMinutes = json.number(object, "spacingMinutes", in: 0...1_440, default: 5)
    if let pickItem = json.optional(object, "systemPickMinutes"),
      let items = json.requireArray(pickItem)
    {
      let values = items.compactMap { json.requireDouble($0, in: 1...1_440) }
      if items.count != 2 {
        json.report("expected [from, to] minutes, found \(items.count) numbers", at: pickItem)
        valid = false
      } else if values.count == 2 {
        if values[0] <= values[1] {
          budget.systemPickMinutes = values[0]...values[1]
        } else {
          json.report("expected [from, to] with from <= to", at: pickItem)
          valid = false
        }
      } else {
        valid = false
      }
    }
    return valid ? budget : nil
  }
}
