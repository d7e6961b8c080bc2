import SmartStackBase
import SmartStackData
import SmartStackEngine

// Reading a scenario file (docs/scenario-format.md). Every problem in the file is
// reported, each as `FILE:LINE:COLUMN: key.path: message`, and the read fails without a
// value when there is any.

extension Scenario {
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
    let scenario = json.parseDocument().flatMap { root in
      json.decodeObject(root) { o in read(&o, file: file) }
    }
    try json.throwIfAny()
    guard let scenario else {
      throw DiagnosticList([
        Diagnostic(file: file, line: 1, column: 1, message: "no scenario could be read")
      ])
    }
    return scenario
  }

  /// Reads the top-level object; the keys are looked up in the documented order
  /// (`name`, `start`, `days`, `timezone`, `seed`, `people`, `stack`, `apps`, `intents`)
  /// and read in the order they depend on each other: apps before the people whose
  /// routines name them.
  private static func read(_ o: inout JSONObjectReader, file: String) -> Scenario? {
    let name = o.optional("name", as: String.self) ?? "scenario"
    let startDay = o.require("start") { item, json in json.localDate(item) }
    let days = o.require("days", in: 1...maximumDays)
    let lastDay = Instant.endOfSupportedRange.milliseconds / Instant.millisecondsPerDay
    if let startDay, let days, startDay + Int64(days) > lastDay, let daysItem = o.object["days"] {
      o.json.report("the simulation would run past 2100-12-31", at: daysItem)
    }
    let zone = o.optional("timezone") { item, json in zoneRules(item, &json) } ?? .utc
    let seed = o.optional("seed", in: UInt64.min...UInt64.max, default: 1)
    _ = (o.member("people"), o.member("stack"))  // looked up here, read below

    // Apps first: routines and matching refer to them.
    let appItems = o.requireElements("apps") ?? []
    if appItems.isEmpty, let appsItem = o.object["apps"], case .array = appsItem.value {
      o.json.report("expected at least one app", at: appsItem)
    }
    // Aligned with the items (an app without an id gets "", which no routine can name
    // since the empty key is refused there too).
    let appIDs = appItems.map { $0.node["id"]?.value.stringValue ?? "" }
    var apps: [ScenarioApp?] = []
    for (index, item) in appItems.enumerated() {
      var app = ScenarioApp.decode(item, &o.json, zone: zone)
      if let id = app?.id, let first = appIDs.firstIndex(of: id), first != index,
        let idItem = item["id"]
      {
        o.json.report(
          "duplicate app id \(JSONEscaping.quoted(id)) (first used by apps[\(first)])", at: idItem)
        app = nil
      }
      apps.append(app)
    }
    let catalog = o.optional("intents", as: IntentCatalog.self) ?? IntentCatalog()
    let platform = readPlatform(&o, file: file, zone: zone)
    let stack: StackSettings?
    if let watch = platform.watch {
      if let stackItem = o.optional("stack") {
        o.json.report(
          "a watchOS scenario's stack is its watch apps' cards (\"watch\": {\"apps\": [...]}); remove \"stack\"",
          at: stackItem)
      }
      var settings = StackSettings(instances: watch.instances)
      settings.rules = .unconstrained
      stack = settings
    } else if platform.valid {
      stack = o.require("stack", as: StackSettings.self)
    } else {
      _ = o.optional("stack")
      stack = nil
    }
    let personas = o.require("people") { item, json in
      readPeople(
        item, &json, appIDs: appIDs,
        defaultVisitsPerDay: platform.watch == nil ? Persona.defaultVisitsPerDay : WatchPlatform.defaultRaisesPerDay)
    }

    guard let startDay, let days, let stack, apps.allSatisfy({ $0 != nil }) else { return nil }
    var scenario = Scenario(
      file: file, name: name, startDay: startDay, days: days, zone: zone, seed: seed,
      personas: personas ?? [], stack: stack, apps: apps.compactMap { $0 }, catalog: catalog)
    scenario.watch = platform.watch
    scenario.checkWidgets(appItems: appItems, &o.json)
    return scenario
  }

  /// `timezone`: an IANA zone name.
  private static func zoneRules(_ item: JSONItem, _ json: inout JSONDecoding) -> ZoneRules? {
    guard let identifier = json.requireString(item) else { return nil }
    guard let rules = ZoneRules(identifier: identifier) else {
      json.report(
        "unknown time zone \(JSONEscaping.quoted(identifier)) (expected an IANA name such as \"Europe/Berlin\")",
        at: item)
      return nil
    }
    return rules
  }

  /// `people`: at least one persona, with distinct names and at most `maximumPeople`
  /// people in all. The personas that could be read, in file order; each problem is
  /// reported.
  private static func readPeople(
    _ item: JSONItem, _ json: inout JSONDecoding, appIDs: [String], defaultVisitsPerDay: Double
  ) -> [Persona]? {
    guard let items = json.requireArray(item) else { return nil }
    if items.isEmpty { json.report("expected at least one persona", at: item) }
    var personas: [Persona] = []
    var total = 0
    for item in items {
      guard let persona = Persona.decode(item, &json, appIDs: appIDs, defaultVisitsPerDay: defaultVisitsPerDay)
      else { continue }
      if personas.contains(where: { $0.name == persona.name }), let nameItem = item["name"] {
        json.report("duplicate persona name \(JSONEscaping.quoted(persona.name))", at: nameItem)
        continue
      }
      total += persona.count
      if total > maximumPeople {
        json.report(
          "a scenario holds at most \(maximumPeople) people in all", at: item["count"] ?? item)
      }
      personas.append(persona)
    }
    return personas
  }

  /// Cross-checks between apps and widgets: suggested widgets are new and match their
  /// app; no instance shows two apps' timelines; every timeline reaches some widget.
  private func checkWidgets(appItems: [JSONItem], _ json: inout JSONDecoding) {
    func member(_ index: Int, _ key: String) -> JSONItem { appItems[index][key] ?? appItems[index] }
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

extension StackSettings: JSONObjectDecodable {
  /// Reads `stack`; instances have the shape of stack files (`StackSpec`).
  public static func read(_ o: inout JSONObjectReader) -> StackSettings? {
    let instances = o.require("instances") { item, json in WidgetInstance.decodeStack(item, &json) }
    var valid = instances != nil
    var stack = StackSettings(instances: instances ?? [])
    // `widgetSuggestions` is looked up after `smartRotate`, its documented place in the
    // key list an unknown key's message gives.
    _ = o.member("smartRotate")
    stack.widgetSuggestions = o.optional("widgetSuggestions", default: false)
    stack.rules = StackRuleSettings.read(&o, over: StackRuleSettings())
    if let budgetItem = o.optional("reloadBudget") {
      if let budget = ReloadBudget(json: budgetItem, in: &o.json) {
        stack.reloadBudget = budget
      } else {
        valid = false
      }
    }
    return valid ? stack : nil
  }
}

extension ReloadBudget: JSONObjectDecodable {
  /// `{"minimum": 40, "maximum": 70, "visitsForMaximum": 90, "spacingMinutes": 5,
  /// "systemPickMinutes": [15, 60]}`; the maximum defaults to max(70, minimum).
  public static func read(_ o: inout JSONObjectReader) -> ReloadBudget? {
    var budget = ReloadBudget()
    var valid = true
    budget.minimum = o.optional("minimum", in: 0...100_000, default: 40)
    budget.maximum = o.optional("maximum", in: 0...100_000, default: max(70, budget.minimum))
    if budget.maximum < budget.minimum,
      let maximumItem = o.object["maximum"] ?? o.object["minimum"]
    {
      o.json.report(
        "the maximum budget (\(NumberFormat.format(budget.maximum))) is below the minimum (\(NumberFormat.format(budget.minimum)))",
        at: maximumItem)
      valid = false
    }
    budget.visitsForMaximum = o.optional("visitsForMaximum", in: 1...1_000_000, default: 90)
    budget.spacingMinutes = o.optional("spacingMinutes", in: 0...1_440, default: 5)
    if let pickItem = o.optional("systemPickMinutes"), let items = o.json.requireArray(pickItem) {
      if let range = systemPickMinutes(items, at: pickItem, &o.json) {
        budget.systemPickMinutes = range
      } else {
        valid = false
      }
    }
    return valid ? budget : nil
  }

  /// The elements of `systemPickMinutes` (at `item`): `[from, to]` minutes in 1...1440
  /// with from <= to; nil after a problem.
  private static func systemPickMinutes(
    _ items: [JSONItem], at item: JSONItem, _ json: inout JSONDecoding
  ) -> ClosedRange<Double>? {
    let values = items.compactMap { json.requireDouble($0, in: 1...1_440) }
    if items.count != 2 {
      json.report("expected [from, to] minutes, found \(items.count) numbers", at: item)
      return nil
    }
    guard values.count == 2 else { return nil }
    guard values[0] <= values[1] else {
      json.report("expected [from, to] with from <= to", at: item)
      return nil
    }
    return values[0]...values[1]
  }
}
