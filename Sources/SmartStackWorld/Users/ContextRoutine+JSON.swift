import SmartStackBase
import SmartStackData

// Reading a persona's `context` (docs/scenario-format.md, "Context"). Every problem is
// reported to the `JSONDecoding` at the offending value.

extension ContextRoutine {
  /// `{"places": {"weekday": [{"from": "07:30", "place": "commute"}, …], "weekend": […]},
  /// "jitterMinutes": 10, "headphones": ["commute"], "focus": {"work": "work"},
  /// "workouts": [{"days": ["mon"], "at": "18:30", "minutes": 45, "place": "gym",
  /// "poi": "fitnessCenter", "probability": 0.8}], "rings": true, "sleep": true,
  /// "windDownMinutes": 30, "wakeupMinutes": 30, "chargingAtNight": true}`; every key is
  /// optional, a missing `weekend` plan repeats `weekday`. Nil after any problem.
  static func decode(_ item: JSONItem, _ json: inout JSONDecoding) -> ContextRoutine? {
    json.decodeObject(item) { o in
      var routine = ContextRoutine()
      if let places = o.optional("places", { item, json in Self.places(item, &json) }) {
        routine.weekdayPlaces = places.weekday
        routine.weekendPlaces = places.weekend
      }
      routine.jitterMinutes = o.optional("jitterMinutes", in: 0...180, default: 0)
      routine.headphonesAt = o.optional("headphones") { item, json -> [String]? in
        guard let names = json.requireArray(item) else { return nil }
        return names.compactMap { Self.name($0, &json, of: .place) }
      } ?? []
      routine.focusAt = o.optional("focus") { item, json -> [PlaceFocus]? in
        guard let members = json.requireStringMembers(item) else { return nil }
        var result: [PlaceFocus] = []
        for (place, focus) in members {
          if let problem = ContextSignal.place.problem(with: place) ?? ContextSignal.focus.problem(with: focus) {
            json.report(problem, at: item)
          } else {
            result.append(PlaceFocus(place: place, focus: focus))
          }
        }
        return result
      } ?? []
      routine.workouts = o.optionalArray("workouts") { item, json in Self.workout(item, &json) } ?? []
      routine.rings = o.optional("rings", default: false)
      routine.sleep = o.optional("sleep", default: false)
      routine.windDownMinutes = o.optional("windDownMinutes", in: 0...720, default: 30)
      routine.wakeupMinutes = o.optional("wakeupMinutes", in: 0...720, default: 30)
      routine.chargingAtNight = o.optional("chargingAtNight", default: false)
      guard o.isClean else { return nil }
      return routine
    }
  }

  /// A non-empty value of `signal` (`ContextSignal.problem(with:)`), reported otherwise.
  private static func name(_ item: JSONItem, _ json: inout JSONDecoding, of signal: ContextSignal) -> String? {
    guard let text = json.requireString(item) else { return nil }
    if let problem = signal.problem(with: text) {
      json.report(problem, at: item)
      return nil
    }
    return text
  }

  /// `{"weekday": [changes], "weekend": [changes]}`, each plan ascending by time.
  private static func places(_ item: JSONItem, _ json: inout JSONDecoding) -> (weekday: [PlaceChange], weekend: [PlaceChange])? {
    json.decodeObject(item) { o in
      let weekday = o.optional("weekday") { item, json in Self.plan(item, &json) }
      let weekend = o.optional("weekend") { item, json in Self.plan(item, &json) }
      guard o.isClean else { return nil }
      return (weekday ?? [], weekend ?? weekday ?? [])
    }
  }

  /// `[{"from": "HH:MM", "place": "name"}, …]`, times strictly ascending.
  private static func plan(_ item: JSONItem, _ json: inout JSONDecoding) -> [PlaceChange]? {
    guard let elements = json.requireArray(item) else { return nil }
    var plan: [PlaceChange] = []
    var valid = true
    for element in elements {
      let change = json.decodeObject(element) { o -> PlaceChange? in
        let minute = o.require("from") { item, json in json.clock(item) }
        let place = o.require("place") { item, json in Self.name(item, &json, of: .place) }
        guard let minute, let place else { return nil }
        if let last = plan.last, minute <= last.minute, let from = o.object["from"] {
          o.json.report("a place plan's times go in ascending order, each once", at: from)
          return nil
        }
        return PlaceChange(minute: minute, place: place)
      }
      if let change { plan.append(change) } else { valid = false }
    }
    return valid ? plan : nil
  }

  /// `{"days": [...], "at": "HH:MM", "minutes": 45, "place": "gym", "poi": "…",
  /// "probability": 0.8}`.
  private static func workout(_ item: JSONItem, _ json: inout JSONDecoding) -> Workout? {
    json.decodeObject(item) { o in
      let days = o.require("days") { item, json in json.weekdays(item) }
      let minute = o.require("at") { item, json in json.clock(item) }
      let minutes = o.require("minutes", in: 1...1_440)
      let place = o.optional("place") { item, json in Self.name(item, &json, of: .place) }
      let poi = o.optional("poi") { item, json in Self.name(item, &json, of: .poi) }
      let probability = o.optional("probability", in: 0...1, default: 1.0)
      guard o.isClean, let days, let minute, let minutes else { return nil }
      return Workout(days: days, minute: minute, minutes: minutes, place: place, poi: poi, probability: probability)
    }
  }
}
