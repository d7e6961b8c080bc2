import SmartStackBase

extension StackRuleSettings {
  /// The keys of the stack's rules in a JSON object: a scenario's `stack`, a stack file
  /// (`StackSpec`) and an exposure log's sidecar all use these four.
  public static let jsonKeys = ["smartRotate", "developerMode", "swipeCooldownMinutes", "rotationLimit"]

  /// Reads `smartRotate` (bool), `developerMode` (bool), `swipeCooldownMinutes` (0…10080)
  /// and `rotationLimit` (`{"perHour": H, "perDay": D}`) from `o`, each optional: an
  /// absent key keeps its value in `defaults`. A wrong value is reported at its location
  /// (`FILE:LINE:COLUMN`) and keeps the default.
  public static func read(_ o: inout JSONObjectReader, over defaults: StackRuleSettings) -> StackRuleSettings {
    var rules = defaults
    rules.smartRotate = o.optional("smartRotate", default: defaults.smartRotate)
    rules.developerMode = o.optional("developerMode", default: defaults.developerMode)
    rules.swipeCooldownMinutes = o.optional("swipeCooldownMinutes", in: 0...10_080, default: defaults.swipeCooldownMinutes)
    rules.rotationLimit = o.optional("rotationLimit", as: RotationLimit.self) ?? defaults.rotationLimit
    return rules
  }

  /// The four keys of `read(_:over:)` with every value written, in that order.
  public var jsonMembers: [JSONMember] {
    [
      JSONMember("smartRotate", .bool(smartRotate)),
      JSONMember("developerMode", .bool(developerMode)),
      JSONMember("swipeCooldownMinutes", .number(swipeCooldownMinutes)),
      JSONMember(
        "rotationLimit",
        .object([
          JSONMember("perHour", .number(Double(rotationLimit.perHour))),
          JSONMember("perDay", .number(Double(rotationLimit.perDay))),
        ])),
    ]
  }
}

extension RotationLimit: JSONObjectDecodable {
  /// `{"perHour": 4, "perDay": 40}`; an absent or wrong value keeps its default.
  public static func read(_ o: inout JSONObjectReader) -> RotationLimit? {
    var limit = RotationLimit()
    limit.perHour = o.optional("perHour", in: 1...10_000, default: limit.perHour)
    limit.perDay = o.optional("perDay", in: 1...100_000, default: limit.perDay)
    return limit
  }
}
