// Reading personas and routines from a scenario file (docs/scenario-format.md,
// "Persona"). Every problem is reported to the `JSONDecoding` at the offending value.

extension Persona {
  static let keys = [
    "name", "count", "visitsPerDay", "sleep", "rhythm", "wantProbability", "routine", "tap",
    "open", "swipe", "foregroundMinutes", "drift",
  ]

  /// Reads one persona; `appIDs` are the scenario's app ids (routines name apps by id).
  /// Returns nil after reporting a problem that leaves no usable value.
  static func decode(_ item: JSONItem, _ json: inout JSONDecoding, appIDs: [String]) -> Persona? {
    guard let object = json.requireObject(item) else { return nil }
    json.rejectUnknownKeys(object, allowed: keys)
    var name = json.requireString(object, "name")
    if let text = name, text.isEmpty, let nameItem = object["name"] {
      json.report("expected a non-empty name", at: nameItem)
      name = nil
    }
    var persona = Persona(name: name ?? "")
    persona.count = json.integer(object, "count", in: 1...Scenario.maximumPeople, default: 1)
    persona.visitsPerDay = json.number(
      object, "visitsPerDay", in: 0...5_000, default: Persona.defaultVisitsPerDay)
    if let sleepItem = json.optional(object, "sleep"),
      let sleep = SleepWindow.decode(sleepItem, &json)
    {
      persona.sleep = sleep
    }
    if let rhythmItem = json.optional(object, "rhythm"),
      let rhythm = hourly(rhythmItem, &json, in: 0...Double.infinity)
    {
      persona.rhythm = rhythm
      var awakeRate = 0.0
      for hour in 0..<24 {
        awakeRate += rhythm[hour] * Double(persona.sleep.awakeMinutes(inHour: hour))
      }
      if awakeRate <= 0 && persona.visitsPerDay > 0 {
        json.report(
          "the rhythm gives no visits while the person is awake (every awake hour has weight 0)",
          at: rhythmItem)
      }
    }
    if let wantItem = json.optional(object, "wantProbability") {
      if case .number = wantItem.value {
        if let p = json.requireDouble(wantItem, in: 0...1) {
          persona.wantProbability = Array(repeating: p, count: 24)
        }
      } else if let perHour = hourly(wantItem, &json, in: 0...1) {
        persona.wantProbability = perHour
      }
    }
    if let routineItem = json.optional(object, "routine"),
      let routine = Routine.decode(routineItem, &json, appIDs: appIDs)
    {
      persona.routine = routine
    }
    persona.tap = json.probability(object, "tap", default: 1)
    persona.open = json.probability(object, "open", default: 1)
    persona.swipe = json.probability(object, "swipe", default: 0)
    persona.foregroundMinutes = json.number(
      object, "foregroundMinutes", in: 0...1_440, default: Persona.defaultForegroundMinutes)
    var drift: [RoutineChange] = []
    var seenDays: [Int] = []
    for change in json.optionalArray(object, "drift") ?? [] {
      guard let changeObject = json.requireObject(change) else { continue }
      json.rejectUnknownKeys(changeObject, allowed: ["fromDay", "routine"])
      let day = json.requireInteger(changeObject, "fromDay", in: 0...(Scenario.maximumDays - 1))
      if let day {
        if seenDays.contains(day), let dayItem = changeObject["fromDay"] {
          json.report("a drift from day \(day) is already given", at: dayItem)
          continue
        }
        seenDays.append(day)
      }
      guard let routineItem = json.require(changeObject, "routine"),
        let routine = Routine.decode(routineItem, &json, appIDs: appIDs), let day
      else { continue }
      drift.append(RoutineChange(fromDay: day, routine: routine))
    }
    persona.drift = drift.sorted { $0.fromDay < $1.fromDay }
    return name == nil ? nil : persona
  }

  /// Exactly 24 numbers in `range`, one per local hour.
  private static func hourly(
    _ item: JSONItem, _ json: inout JSONDecoding, in range: ClosedRange<Double>
  ) -> [Double]? {
    guard let values = json.requireArray(item) else { return nil }
    guard values.count == 24 else {
      json.report("expected 24 numbers, one per local hour 0...23, found \(values.count)", at: item)
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

extension SleepWindow {
  /// `{"from": "23:00", "to": "07:00"}`.
  static func decode(_ item: JSONItem, _ json: inout JSONDecoding) -> SleepWindow? {
    guard let object = json.requireObject(item) else { return nil }
    json.rejectUnknownKeys(object, allowed: ["from", "to"])
    let from = json.require(object, "from").flatMap { json.clock($0) }
    let to = json.require(object, "to").flatMap { json.clock($0) }
    guard let from, let to else { return nil }
    return SleepWindow(fromMinute: from, toMinute: to)
  }
}

extension Routine {
  /// `{"weekday": [blocks], "weekend": [blocks]}`; a missing `weekend` repeats `weekday`.
  static func decode(_ item: JSONItem, _ json: inout JSONDecoding, appIDs: [String]) -> Routine? {
    guard let object = json.requireObject(item) else { return nil }
    json.rejectUnknownKeys(object, allowed: ["weekday", "weekend"])
    var valid = true
    func blocks(_ key: String, _ json: inout JSONDecoding) -> [RoutineBlock]? {
      guard let items = json.optionalArray(object, key) else { return nil }
      var result: [RoutineBlock] = []
      for blockItem in items {
        if let block = RoutineBlock.decode(blockItem, &json, appIDs: appIDs) {
          result.append(block)
        } else {
          valid = false
        }
      }
      return result
    }
    let weekday = blocks("weekday", &json) ?? []
    let weekend = blocks("weekend", &json) ?? weekday
    return valid ? Routine(weekday: weekday, weekend: weekend) : nil
  }
}

extension RoutineBlock {
  /// `{"hours": "7-9", "wants": {"transit": 3, "weather": 1}}`.
  static func decode(_ item: JSONItem, _ json: inout JSONDecoding, appIDs: [String])
    -> RoutineBlock?
  {
    guard let object = json.requireObject(item) else { return nil }
    json.rejectUnknownKeys(object, allowed: ["hours", "wants"])
    var hours: (start: Int, end: Int)? = nil
    if let hoursItem = json.require(object, "hours"), let text = json.requireString(hoursItem) {
      hours = ScenarioText.hours(text)
      if hours == nil {
        json.report(
          "expected local hours \"A-B\" (A in 0...23, B in 0...24, A != B) or \"A\", found \(JSONEscaping.quoted(text))",
          at: hoursItem)
      }
    }
    var wants: [AppWeight] = []
    var valid = true
    if let wantsObject = json.requireObject(object, "wants") {
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
    } else {
      valid = false
    }
    guard valid, let hours else { return nil }
    return RoutineBlock(startHour: hours.start, endHour: hours.end, wants: wants)
  }
}
