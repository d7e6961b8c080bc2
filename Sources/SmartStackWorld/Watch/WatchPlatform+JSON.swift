import Foundation
import SmartStackBase
import SmartStackData

// Reading a scenario's `platform` and `watch` keys (docs/scenario-format.md, "The watch").

extension Scenario {
  /// `platform` (`"iOS"`, the default, or `"watchOS"`) and, for watchOS, `watch`:
  /// `{"version": 26, "cards": 2, "cluePrefix": N, "apps": ["app.json", …]}` with the app
  /// files' paths relative to the scenario's folder. `valid` is false after a problem.
  static func readPlatform(_ o: inout JSONObjectReader, file: String, zone: ZoneRules) -> (
    watch: WatchPlatform?, valid: Bool
  ) {
    let platformItem = o.optional("platform")
    let platform = platformItem.flatMap { o.json.requireString($0) } ?? "iOS"
    let watchItem = o.optional("watch")
    switch platform {
    case "iOS":
      if let watchItem {
        o.json.report("\"watch\" needs \"platform\": \"watchOS\"", at: watchItem)
        return (nil, false)
      }
      return (nil, platformItem == nil || platformItem?.value.stringValue != nil)
    case "watchOS":
      guard let watchItem else {
        o.json.report("a watchOS scenario needs \"watch\": {\"apps\": [...]}", at: platformItem ?? o.item)
        return (nil, false)
      }
      let watch: WatchPlatform? = o.json.decodeObject(watchItem) { w in readWatch(&w, file: file, zone: zone) }
      return (watch, watch != nil)
    default:
      o.json.report("expected \"iOS\" or \"watchOS\", found \(JSONEscaping.quoted(platform))", at: platformItem!)
      return (nil, false)
    }
  }

  private static func readWatch(_ o: inout JSONObjectReader, file: String, zone: ZoneRules) -> WatchPlatform? {
    let version = o.optional("version") { item, json -> WatchVersion? in
      json.check(Int(json: item, in: &json), at: item, { WatchVersion(major: $0) != nil }) {
        "expected a watchOS version: one of \(WatchVersion.list), found \($0)"
      }.flatMap(WatchVersion.init(major:))
    }
    let cards = o.optional("cards", in: 1...WatchPlatform.maximumCards, default: WatchPlatform.defaultCards)
    let prefix = o.optional("cluePrefix", in: 1...1_000)
    let folder = (file as NSString).deletingLastPathComponent
    var apps: [WatchApp] = []
    var files: [String] = []
    var valid = true
    for item in o.requireElements("apps") ?? [] {
      guard let path = o.json.requireString(item) else {
        valid = false
        continue
      }
      let resolved = path.hasPrefix("/") || folder.isEmpty ? path : "\(folder)/\(path)"
      do {
        apps.append(try WatchApp.read(path: resolved, zone: zone))
        files.append(resolved)
      } catch let list as DiagnosticList {
        o.json.report("the watch app has problems:\n\(list.description)", at: item)
        valid = false
      } catch {
        o.json.report("\(error)", at: item)
        valid = false
      }
    }
    if valid, apps.isEmpty, let item = o.object["apps"] { o.json.report("expected at least one watch app", at: item) }
    let kinds = apps.flatMap { $0.widgets.map(\.kind) }
    for (k, kind) in kinds.enumerated() where kinds[..<k].contains(kind) {
      if let item = o.object["apps"] {
        o.json.report("widget kind \(JSONEscaping.quoted(kind)) is declared by two watch apps; kinds name cards", at: item)
      }
      valid = false
    }
    guard valid, !apps.isEmpty, o.isClean else { return nil }
    var platform = WatchPlatform(version: version ?? .watchOS26, cards: cards, cluePrefix: prefix, apps: apps)
    platform.appFiles = files
    return platform
  }
}
