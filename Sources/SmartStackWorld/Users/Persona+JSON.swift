import SmartStackBase
import SmartStackData
import SmartStackEngine

// Reading personas and routines from a scenario file (docs/scenario-format.md,
// "Persona"). Every problem is reported to the `JSONDecoding` at the offending value.

extension Persona {
  /// Reads one persona; `appIDs` are the scenario's app ids (routines name apps by id).
  /// Returns nil after reporting a problem that leaves no usable value.
  /// `defaultVisitsPerDay` is the platform's: Home Screen visits on iPhone, wrist raises
  /// on the watch (`WatchPlatform.defaultRaisesPerDay`).
  static func decode(
    _ item: JSONItem, _ json: inout JSONDecoding, appIDs: [String],
    defaultVisitsPerDay: Double = Persona.defaultVisitsPerDay
  ) -> Persona? {
    json.decodeObject(item) { o in
      let name = o.require("name", as: String.self, where: { !$0.isEmpty }) { _ in
        "expected a non-empty name"
      }
      var persona = Persona(name: name ?? "")
      persona.count = o.optional("count", in: 1...Scenario.maximumPeople, default: 1)
      persona.visitsPerDay = o.optional(
        "visitsPerDay", in: 0...5_000, default: defaultVisitsPerDay)
      persona.sleep = o.optional("sleep", as: SleepWindow.self) ?? persona.sleep
      if let rhythmItem = o.optional("rhythm"),
        let rhythm = hourly(rhythmItem, &o.json, in: 0...Double.infinity)
      {
        persona.rhythm = rhythm
        var awakeRate = 0.0
        for index in rhythm.indices {
          awakeRate += rhythm[index] * Double(persona.sleep.awakeMinutes(inHour: index % 24))
        }
        if awakeRate <= 0 && persona.visitsPerDay > 0 {
          o.json.report(
            "the rhythm gives no visits while the person is awake (every awake hour has weight 0)",
            at: rhythmItem)
        }
      }
      if let wantItem = o.optional("wantProbability") {
        if case .number = wantItem.value {
          if let p = o.json.requireDouble(wantItem, in: 0...1) {
            persona.wantProbability = Array(repeating: p, count: 24)
          }
        } else if let perHour = hourly(wantItem, &o.json, in: 0...1) {
          persona.wantProbability = perHour
        }
      }
      persona.routine =
        o.optional("routine") { item, json in Routine.decode(item, &json, appIDs: appIDs) }
        ?? persona.routine
      persona.repeating = o.optional("repeat", as: WantRepeat.self) ?? persona.repeating
      persona.tap = o.optional("tap", in: 0...1, default: 1)
      persona.open = o.optional("open", in: 0...1, default: 1)
      persona.swipe = o.optional("swipe", in: 0...1, default: 0)
      persona.foregroundMinutes = o.optional(
        "foregroundMinutes", in: 0...1_440, default: Persona.defaultForegroundMinutes)
      var contextFailed = false
      if let contextItem = o.optional("context") {
        persona.context = ContextRoutine.decode(contextItem, &o.json)
        contextFailed = persona.context == nil
      }
      var seenDays: [Int] = []
      let drift = (o.optionalElements("drift") ?? []).compactMap { change in
        RoutineChange.decode(change, &o.json, appIDs: appIDs, seenDays: &seenDays)
      }
      persona.drift = drift.sorted { $0.fromDay < $1.fromDay }
      // A routine block's place must be one the context can be at.
      let reachable = (persona.context?.weekdayPlaces ?? []).map(\.place) + (persona.context?.weekendPlaces ?? []).map(\.place)
        + (persona.context?.workouts ?? []).compactMap(\.place)
      for place in persona.wantPlaces where !contextFailed && !reachable.contains(place) {
        o.json.report(
          "a routine block wants place \(JSONEscaping.quoted(place)), which the persona's context (its place plan or workouts) never reaches",
          at: o.item)
      }
      return name == nil ? nil : persona
    }
  }

  /// Exactly 24 numbers in `range`, one per local hour, or 168, one per local hour of
  /// week (Monday 00h first).
  private static func hourly(
    _ item: JSONItem, _ json: inout JSONDecoding, in range: ClosedRange<Double>
  ) -> [Double]? {
    guard let values = json.requireArray(item) else { return nil }
    guard values.count == 24 || values.count == 168 else {
      json.report(
        "expected 24 numbers, one per local hour 0...23, or 168, one per local hour of week (Monday 00h first), found \(values.count)",
        at: item)
      return nil
    }
    var numbers: [Double] = []
    for value in values {
      guard let number = json.requireDouble(value, in: range) else { return nil }
      numbers.append(number)
    }
    return numbers
  }
}

extension RoutineChange {
  /// `{"fromDay": 14, "routine": {…}}`; a day already in `seenDays` is reported (its
  /// routine is not read), a new one is added to it.
  static func decode(
    _ item: JSONItem, _ json: inout JSONDecoding, appIDs: [String], seenDays: inout [Int]
  ) -> RoutineChange? {
    json.decodeObject(item) { o in
      let day = o.require("fromDay", in: 0...(Scenario.maximumDays - 1))
      if let day, seenDays.contains(day), let dayItem = o.object["fromDay"] {
        o.json.report("a drift from day \(day) is already given", at: dayItem)
        _ = o.member("routine")
        return nil
      }
      if let day { seenDays.append(day) }
      let routine = o.require("routine") { item, json in
        Routine.decode(item, &json, appIDs: appIDs)
      }
      guard let day, let routine else { return nil }
      return RoutineChange(fromDay: day, routine: routine)
    }
  }
}

extension SleepWindow: JSONObjectDecodable {
  /// `{"from": "23:00", "to": "07:00"}`.
  public static func read(_ o: inout JSONObjectReader) -> SleepWindow? {
    let from = o.require("from") { item, json in json.clock(item) }
    let to = o.require("to") { item, json in json.clock(item) }
    guard let from, let to else { return nil }
    return SleepWindow(fromMinute: from, toMinute: to)
  }
}

extension Routine {
  /// `{"weekday": [blocks], "weekend": [blocks]}`; a missing `weekend` repeats `weekday`.
  /// Every block is read; nil after any problem.
  static func decode(_ item: JSONItem, _ json: inout JSONDecoding, appIDs: [String]) -> Routine? {
    json.decodeObject(item) { o in
      let weekday = o.optionalArray("weekday") { item, json in
        RoutineBlock.decode(item, &json, appIDs: appIDs)
      }
      let weekend = o.optionalArray("weekend") { item, json in
        RoutineBlock.decode(item, &json, appIDs: appIDs)
      }
      guard o.isClean else { return nil }
      return Routine(weekday: weekday ?? [], weekend: weekend ?? weekday ?? [])
    }
  }
}

extension RoutineBlock {
  /// `{"hours": "7-9", "wants": {"transit": 3, "weather": 1}}`, optionally with
  /// `"place": "commute"` (the block applies only while the person is there).
  static func decode(_ item: JSONItem, _ json: inout JSONDecoding, appIDs: [String])
    -> RoutineBlock?
  {
    json.decodeObject(item) { o in
      let hours = o.require("hours") { item, json -> (start: Int, end: Int)? in
        guard let text = json.requireString(item) else { return nil }
        guard let hours = ScenarioText.hours(text) else {
          json.report(
            "expected local hours \"A-B\" (A in 0...23, B in 0...24, A != B) or \"A\", found \(JSONEscaping.quoted(text))",
            at: item)
          return nil
        }
        return hours
      }
      let wants = o.require("wants") { item, json in wantedApps(item, &json, appIDs: appIDs) }
      let place = o.optional("place") { item, json -> String? in
        guard let text = json.requireString(item) else { return nil }
        if let problem = ContextSignal.place.problem(with: text) { json.report(problem, at: item) }
        return text
      }
      guard let hours, let wants, o.isClean else { return nil }
      return RoutineBlock(startHour: hours.start, endHour: hours.end, wants: wants, place: place)
    }
  }

  /// `wants`: app id -> weight >= 0; an id that is no app's is reported at the key.
  /// Every member is read; nil after any problem.
  private static func wantedApps(_ item: JSONItem, _ json: inout JSONDecoding, appIDs: [String])
    -> [AppWeight]?
  {
    guard let wantsObject = json.requireObject(item) else { return nil }
    var wants: [AppWeight] = []
    var valid = true
    for member in wantsObject.members {
      let path = JSONDecoding.path(wantsObject.path, key: member.key)
      let weight = json.requireDouble(JSONItem(member.node, path: path), in: 0...Double.infinity)
      guard !member.key.isEmpty, let app = appIDs.firstIndex(of: member.key) else {
        var names: [String] = []
        for id in appIDs where !id.isEmpty && !names.contains(id) { names.append(id) }
        let known = names.map(JSONEscaping.quoted).joined(separator: ", ")
        json.report(
          "unknown app \(JSONEscaping.quoted(member.key)) (apps: \(known.isEmpty ? "none" : known))",
          at: member.keyOffset, path: path)
        valid = false
        continue
      }
      guard let weight else {
        valid = false
        continue
      }
      wants.append(AppWeight(app: Int32(app), weight: weight))
    }
    return valid ? wants : nil
  }
}
