import Foundation
import Testing

import SmartStackKit

/// A stack file may state the stack's rules with a scenario's keys; `replay` enforces
/// them (`ReplayOptions.rules`), and a file that names none keeps replay unconstrained.
@Suite("Stack file: the stack's rules")
struct StackFileRulesTests {
  static let instances = #"{"instances": [{"id": "A", "kind": "A"}]"#

  static func read(_ members: String) throws -> StackSpec {
    let text = Self.instances + (members.isEmpty ? "" : ", " + members) + "}\n"
    return try StackSpec.read(bytes: Array(text.utf8), file: "s.json")
  }

  @Test func aFileThatNamesNoRuleHasNoneAndReplayIsUnconstrained() throws {
    let spec = try Self.read("")
    #expect(spec.rules == nil)
    var options = ReplayOptions()
    options.stack = .fixed(spec)
    #expect(options.rules == .unconstrained)
  }

  @Test func namedRulesStartFromUnconstrainedAndTheRotationLimitTurnsTheLimitOn() throws {
    let off = try #require(try Self.read(#""smartRotate": false"#).rules)
    #expect(!off.smartRotate && off.developerMode && !off.limitsRotations)
    let limited = try #require(try Self.read(#""rotationLimit": {"perHour": 2, "perDay": 9}"#).rules)
    #expect(limited.limitsRotations && limited.rotationLimit == RotationLimit(perHour: 2, perDay: 9))
    let developerOff = try #require(try Self.read(#""developerMode": false"#).rules)
    #expect(developerOff.limitsRotations && developerOff.rotationLimit == RotationLimit())
    let pin = try #require(try Self.read(#""swipeCooldownMinutes": 15"#).rules)
    #expect(pin.swipeCooldownMinutes == 15 && !pin.limitsRotations)
  }

  @Test func theRulesOfOptionsWinOverTheFile() throws {
    var options = ReplayOptions()
    options.stack = .fixed(try Self.read(#""smartRotate": false"#))
    #expect(!options.rules.smartRotate)
    options.stackRules = .unconstrained
    #expect(options.rules == .unconstrained)
  }

  @Test func theRulesSurviveTheStackFilesOwnWriter() throws {
    let spec = try Self.read(#""smartRotate": false, "rotationLimit": {"perHour": 3, "perDay": 30}"#)
    let again = try StackSpec.read(bytes: Array(spec.jsonText().utf8), file: "s.json")
    #expect(again.rules == spec.rules)
    #expect(try StackSpec.read(bytes: Array(try Self.read("").jsonText().utf8), file: "s.json").rules == nil)
  }

  @Test func aWrongRuleValueIsReportedAtItsLocation() throws {
    #expect {
      try Self.read(#""rotationLimit": {"perHour": 0}"#)
    } throws: { error in
      "\(error)".hasPrefix("s.json:1:") && "\(error)".contains("perHour")
    }
    #expect {
      try Self.read(#""smartRotat": false"#)
    } throws: { error in
      "\(error)".contains("smartRotat")
    }
  }
}
