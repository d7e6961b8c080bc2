import SmartStackBase
import SmartStackData

extension FittedScenario {
  /// The scenario file (docs/scenario-format.md): every fitted value written, taps,
  /// opens and swipes at the values docs/fit.md assumes, a trailing newline.
  /// Numbers are written as `NumberFormat.format` does; arrays of numbers and values
  /// short enough stay on one line. The same fit gives the same bytes.
  public func jsonText() -> String {
    let (year, month, day) = ISO8601.civil(fromDays: startDay)
    func two(_ x: Int) -> String { x < 10 ? "0\(x)" : "\(x)" }
    func clock(_ minute: Int) -> String { two(minute / 60) + ":" + two(minute % 60) }
    let start = "\(year)-\(two(month))-\(two(day))"
    let people: [JSONNode] = personas.map { persona in
      func blocks(_ type: Int) -> JSONValue {
        .array(
          (0..<24).compactMap { hour in
            let wants = persona.routine[type][hour].indices.compactMap { a -> JSONMember? in
              let w = persona.routine[type][hour][a]
              return w > 0 ? JSONMember(appIDs[a], .number(w)) : nil
            }
            guard !wants.isEmpty else { return nil }
            return JSONNode(.object([JSONMember("hours", .string("\(hour)")), JSONMember("wants", .object(wants))]))
          })
      }
      return JSONNode(
        .object([
          JSONMember("name", .string(persona.name)),
          JSONMember("count", .number(Double(persona.members.count))),
          JSONMember("visitsPerDay", .number(persona.visitsPerDay)),
          JSONMember(
            "sleep", .object([JSONMember("from", .string(clock(persona.sleepFrom))), JSONMember("to", .string(clock(persona.sleepTo)))])),
          JSONMember("rhythm", .array(persona.rhythm.map { JSONNode(.number($0)) })),
          JSONMember("wantProbability", .array(persona.wantProbability.map { JSONNode(.number($0)) })),
          JSONMember("routine", .object([JSONMember("weekday", blocks(0)), JSONMember("weekend", blocks(1))])),
          JSONMember(
            "repeat",
            .object([
              JSONMember("probability", .number(persona.repeatProbability)),
              JSONMember("minutes", .number(FitProfile.repeatMinutes)),
            ])),
          JSONMember("tap", .number(1)),
          JSONMember("open", .number(1)),
          JSONMember("swipe", .number(0)),
        ]))
    }
    var stackMembers = [JSONMember("instances", stack.instancesJSON)]
    if let rules = stack.rules { stackMembers += rules.jsonMembers }
    let appValues: [JSONNode] = zip(apps, appIDs).map { app, id in
      var members = [JSONMember("id", .string(id)), JSONMember("kind", .string(app.kind))]
      if let intent = app.intent { members.append(JSONMember("intent", .string(intent))) }
      if !app.parameters.isEmpty {
        members.append(JSONMember("parameters", .object(app.parameters.map { JSONMember($0.key, .string($0.value)) })))
      }
      return JSONNode(.object(members))
    }
    var root = [
      JSONMember("name", .string(name)),
      JSONMember("start", .string(start)),
      JSONMember("days", .number(Double(days))),
      JSONMember("timezone", .string(zone.identifier)),
      JSONMember("seed", .number(Double(seed))),
      JSONMember("people", .array(people)),
      JSONMember("stack", .object(stackMembers)),
      JSONMember("apps", .array(appValues)),
    ]
    if !stack.catalog.intents.isEmpty { root.append(JSONMember("intents", stack.catalog.jsonValue)) }
    var text = ""
    Self.write(.object(root), depth: 0, to: &text)
    return text + "\n"
  }

  /// Writes `value` with 2-space indentation; arrays of numbers and values whose compact
  /// form has at most 100 characters go on one line.
  static func write(_ value: JSONValue, depth: Int, to text: inout String) {
    let compact = JSONWriter.serialize(value)
    let numbersOnly: Bool
    if case .array(let elements) = value {
      numbersOnly = elements.allSatisfy { if case .number = $0.value { true } else { false } }
    } else {
      numbersOnly = false
    }
    if numbersOnly || compact.count <= 100 {
      text += compact
      return
    }
    let pad = String(repeating: "  ", count: depth + 1)
    switch value {
    case .array(let elements):
      text += "[\n"
      for (i, element) in elements.enumerated() {
        text += pad
        write(element.value, depth: depth + 1, to: &text)
        text += i + 1 < elements.count ? ",\n" : "\n"
      }
      text += String(repeating: "  ", count: depth) + "]"
    case .object(let members):
      text += "{\n"
      for (i, member) in members.enumerated() {
        text += pad
        JSONEscaping.appendQuoted(member.key, to: &text)
        text += ": "
        write(member.node.value, depth: depth + 1, to: &text)
        text += i + 1 < members.count ? ",\n" : "\n"
      }
      text += String(repeating: "  ", count: depth) + "}"
    default:
      text += compact
    }
  }
}
