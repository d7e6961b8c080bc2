import Foundation

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench

/// The Biome folder `Tests/Fixtures/importers/biome/` (used by the command-line tests and
/// the example in docs/importers.md), made by `SEGBWriter`: `files` says what each file
/// holds. Regenerate with `SMARTSTACK_WRITE_BIOME_FIXTURES=1 swift test --filter BiomeFixtureTests`.
enum BiomeFixtures {
  typealias R = SEGBWriter.Record
  /// 2026-03-02T08:00:00Z (a Monday) in Cocoa seconds.
  static let t0 = 794_131_200.0

  /// (path below the fixture folder, bytes).
  static var files: [(String, [UInt8])] {
    let focus = "streams/restricted/App.InFocus/local/"
    let intent = "streams/restricted/App.Intent/local/"
    let plugged = "streams/restricted/Device.Power.PluggedIn/local/"
    func app(_ bundle: String, _ starting: UInt64, _ minutes: Double) -> R {
      R(payload: BiomePayload.inFocus(bundle, starting: starting, time: t0 + minutes * 60),
        time: t0 + minutes * 60 + 0.5)
    }
    let home = "com.apple.springboard"
    return [
      // iOS 16 style (version 1): the morning.
      (focus + "794131200000000", SEGBWriter.v1([
        app(home, 1, 0), app(home, 0, 1), app("com.apple.mobilesafari", 1, 1),
        app("com.apple.mobilesafari", 0, 6), app(home, 1, 6), app(home, 0, 7),
        app("com.apple.MobileSMS", 1, 7), R(payload: [], state: 3, time: t0 + 480),
      ])),
      // iOS 17 style (version 2): the evening, and a day later.
      (focus + "794174400000000", SEGBWriter.v2([
        app(home, 1, 720), app(home, 0, 721), app("com.apple.Maps", 1, 721),
        app(home, 1, 1440), app(home, 0, 1441), app("com.apple.mobilesafari", 1, 1441),
      ])),
      (intent + "794131200000000", SEGBWriter.v2([
        R(payload: BiomePayload.intent(
          "com.apple.MobileSMS", intentClass: "INSendMessageIntent", verb: "SendMessage",
          time: t0 + 8 * 60, interaction: interaction),
          time: t0 + 8 * 60),
        R(payload: BiomePayload.intent(
          "com.apple.Maps", intentClass: "INGetDirectionsIntent", verb: "GetDirections",
          time: t0 + 722 * 60), time: t0 + 722 * 60),
      ])),
      // Read only for --context-out: charging changes (iOS 17 style), a deleted record and
      // one without `starting` (neither is a change); the importer sorts them by time.
      (plugged + "794131200000000", SEGBWriter.v2([
        R(payload: BiomePayload.pluggedIn(starting: false), time: t0 - 3600),
        R(payload: BiomePayload.pluggedIn(starting: true, wireless: true), time: t0 + 4 * 3600),
        R(payload: [], state: 3, time: t0 + 4 * 3600 + 60),
        R(payload: BiomePayload.pluggedIn(starting: false), time: t0 + 4 * 3600 + 45 * 60),
        R(payload: BiomePayload.pluggedIn(starting: nil), time: t0 + 5 * 3600),
        R(payload: BiomePayload.pluggedIn(starting: false), time: t0 + 23.5 * 3600),
        R(payload: BiomePayload.pluggedIn(starting: true), time: t0 + 14 * 3600),
      ])),
      // Ignored: hidden files and sub-folders such as tombstone/.
      (focus + ".DS_Store", Array("not SEGB".utf8)),
      (focus + "tombstone/794131200000001", Array("not SEGB either".utf8)),
    ]
  }

  /// An archive like `BiomePayload.interaction(direction: 1, group: "chat-1")` makes, made
  /// once and kept, since `NSKeyedArchiver`'s bytes differ from run to run (dictionary
  /// order); its class is the test's `FakeInteraction`.
  static let interaction = [UInt8](Data(base64Encoded: "YnBsaXN0MDDUAQIDBAUGCQpZJGFyY2hpdmVyVCR0b3BYJHZlcnNpb25YJG9iamVjdHNfEA9OU0tleWVkQXJjaGl2ZXLRBwhUcm9vdIABEgABhqClCwwVFhdVJG51bGzUDQ4PEBESExRfEA9ncm91cElkZW50aWZpZXJWJGNsYXNzWWRpcmVjdGlvblppZGVudGlmaWVygAKABBABgANWY2hhdC0xXGlkZW50aWZpZXItMdIYGRobWiRjbGFzc25hbWVYJGNsYXNzZXNfEBFhLkZha2VJbnRlcmFjdGlvbqIcHV8QEWEuRmFrZUludGVyYWN0aW9uWE5TT2JqZWN0CBEbICkyREdMTlNZX2h6gYuWmJqcnqWyt8LL3+L2AAAAAAAAAQEAAAAAAAAAHgAAAAAAAAAAAAAAAAAAAP8=")!)

  static var folder: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/importers/biome")
  }
}
