import Foundation
import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackWorld
import SmartStackExperiments

/// The sidecar's JSON format (docs/counterfactual.md, "Exposure log, version 2"):
///
/// ```json
/// {"format": "smartstack-exposure-sidecar", "version": 2, "timezone": "Europe/Berlin",
///  "stack": {"smartRotate": true, "developerMode": false, "swipeCooldownMinutes": 60,
///            "rotationLimit": {"perHour": 4, "perDay": 40}, "widgetSuggestions": false},
///  "instances": [{"id": "weather", "kind": "Weather"},
///                {"id": "tickets", "kind": "Tickets", "suggested": true}],
///  "apps": [{"id": "com.example.weather", "instances": ["weather"]}],
///  "suggestionWindows": [{"person": "p-0", "instance": "tickets",
///                         "start": "2026-03-02T08:00:00Z", "end": "2026-03-02T09:00:00Z"}],
///  "timelines": "exposures.timelines.json", "context": "exposures.context.csv"}
/// ```
///
/// `instances` lists the stack in manual order, then the suggested ones (`suggested`);
/// `apps` in donation-kind order, each with the instances its wants match; `timelines`
/// names a timeline file (the format of `replay --timelines`, one timeline per person
/// with `user`) relative to the sidecar, or is `null`; `context`, present only when the
/// people had context, names their context changes (`docs/context.md`) relative to the
/// sidecar. Unknown keys are errors.
extension ExposureSidecar {
  /// The sidecar's path beside an exposure log: `NAME.csv` → `NAME.sidecar.json`.
  public static func path(besideLog log: String) -> String {
    (log.hasSuffix(".csv") ? String(log.dropLast(4)) : log) + ".sidecar.json"
  }

  /// The timeline file's name beside an exposure log: `NAME.timelines.json`.
  public static func timelinesName(besideLog log: String) -> String {
    let name = (log as NSString).lastPathComponent
    return (name.hasSuffix(".csv") ? String(name.dropLast(4)) : name) + ".timelines.json"
  }

  /// The context file's name beside an exposure log: `NAME.context.csv`.
  public static func contextName(besideLog log: String) -> String {
    let name = (log as NSString).lastPathComponent
    return (name.hasSuffix(".csv") ? String(name.dropLast(4)) : name) + ".context.csv"
  }

  /// The sidecar as JSON, naming `timelinesFile` (relative to the sidecar) when the
  /// sidecar has timelines, and `contextFile` when it has context.
  public func jsonText(timelinesFile: String?, contextFile: String? = nil) -> String {
    let instanceValues: [JSONNode] = instances.enumerated().map { i, instance in
      var members = [JSONMember("id", .string(instance.id)), JSONMember("kind", .string(instance.kind))]
      if !instance.configuration.isEmpty {
        members.append(
          JSONMember("configuration", .object(instance.configuration.map { JSONMember($0.key, .string($0.value)) })))
      }
      if i >= stackCount { members.append(JSONMember("suggested", .bool(true))) }
      return JSONNode(.object(members))
    }
    let appValues: [JSONNode] = apps.map { app in
      JSONNode(
        .object([
          JSONMember("id", .string(app.id)),
          JSONMember("instances", .array(app.instances.map { JSONNode(.string(instances[Int($0)].id)) })),
        ]))
    }
    var windows: [JSONNode] = []
    for person in suggestionWindows.keys.sorted() {
      for w in suggestionWindows[person]! {
        windows.append(
          JSONNode(
            .object([
              JSONMember("person", .string(person)), JSONMember("instance", .string(instances[Int(w.instance)].id)),
              JSONMember("start", .string(ISO8601.format(Instant(milliseconds: w.start)))),
              JSONMember("end", .string(ISO8601.format(Instant(milliseconds: w.end)))),
            ])))
      }
    }
    let stack = JSONValue.object(rules.jsonMembers + [JSONMember("widgetSuggestions", .bool(widgetSuggestions))])
    var members = [
      JSONMember("format", .string("smartstack-exposure-sidecar")),
      JSONMember("version", .number(2)),
      JSONMember("timezone", .string(zone.identifier)),
      JSONMember("stack", stack),
      JSONMember("instances", .array(instanceValues)),
      JSONMember("apps", .array(appValues)),
      JSONMember("suggestionWindows", .array(windows)),
      JSONMember("timelines", timelinesFile.map { .string($0) } ?? .null),
    ]
    if context != nil, let contextFile { members.append(JSONMember("context", .string(contextFile))) }
    return JSONValue.object(members).serialized(pretty: true) + "\n"
  }

  /// Reads a sidecar; every problem is reported as `FILE:LINE:COLUMN: path: message`.
  /// The timeline file it names is read relative to the sidecar's folder.
  public static func read(path: String) throws -> ExposureSidecar {
    var json = JSONDecoding(file: path, bytes: try FileIO.readBytes(path))
    guard let root = json.parseDocument() else { return try json.finish(nil) }
    var timelinesName: String? = nil
    var contextName: String? = nil
    let sidecar = json.decodeObject(root) { o -> ExposureSidecar? in
      if let format = o.require("format", as: String.self), format != "smartstack-exposure-sidecar" {
        o.json.report("format must be \"smartstack-exposure-sidecar\"", at: o.item)
      }
      if let version = o.require("version", as: Int.self), version != 2 {
        o.json.report("version must be 2", at: o.item)
      }
      let zoneName = o.require("timezone", as: String.self)
      let zone = zoneName.flatMap { ZoneRules(identifier: $0) }
      if zoneName != nil && zone == nil { o.json.report("unknown time zone '\(zoneName!)'", at: o.item) }
      var rules = StackRuleSettings()
      var suggestions = false
      _ = o.require("stack") { item, json in
        json.decodeObject(item) { s -> Bool? in
          rules = StackRuleSettings.read(&s, over: StackRuleSettings())
          suggestions = s.optional("widgetSuggestions", default: false)
          return true
        }
      }
      var instances: [WidgetInstance] = []
      var stackCount = 0
      _ = o.require("instances") { item, json in
        json.requireArray(item).map { items in
          for element in items {
            _ = json.decodeObject(element) { i -> Bool? in
              guard let id = i.require("id", as: String.self) else { return nil }
              let kind = i.optional("kind", as: String.self) ?? id
              let configuration = (i.optionalStringMembers("configuration") ?? []).map { Parameter($0.key, $0.value) }
              let suggested = i.optional("suggested", default: false)
              if !suggested {
                if stackCount < instances.count {
                  i.json.report("a stack instance follows a suggested one: list the stack first", at: i.item)
                }
                stackCount += 1
              }
              instances.append(WidgetInstance(id: id, kind: kind, configuration: configuration))
              return true
            }
          }
          return true
        }
      }
      var index: [String: Int32] = [:]
      for (k, instance) in instances.enumerated() { index[instance.id] = Int32(k) }
      var apps: [(id: String, instances: [Int32])] = []
      _ = o.require("apps") { item, json in
        json.requireArray(item).map { items in
          for element in items {
            _ = json.decodeObject(element) { a -> Bool? in
              guard let id = a.require("id", as: String.self) else { return nil }
              var matches: [Int32] = []
              for name in a.optionalArray("instances", of: String.self) ?? [] {
                if let k = index[name] { matches.append(k) } else {
                  a.json.report("app '\(id)' matches '\(name)', which is not among the instances", at: a.item)
                }
              }
              apps.append((id, matches.sorted()))
              return true
            }
          }
          return true
        }
      }
      var windows: [String: [SuggestionWindow]] = [:]
      _ = o.optional("suggestionWindows") { item, json in
        json.requireArray(item).map { items in
          for element in items {
            _ = json.decodeObject(element) { w -> Bool? in
              let person = w.require("person", as: String.self)
              let instance = w.require("instance", as: String.self)
              let start = w.require("start", as: String.self).flatMap(Self.instant)
              let end = w.require("end", as: String.self).flatMap(Self.instant)
              guard let person, let instance, let start, let end else {
                w.json.report("a window needs person, instance, and start and end in ISO 8601 with a zone", at: w.item)
                return nil
              }
              guard let k = index[instance] else {
                w.json.report("instance '\(instance)' is not among the instances", at: w.item)
                return nil
              }
              windows[person, default: []].append(SuggestionWindow(instance: k, start: start, end: end))
              return true
            }
          }
          return true
        }
      }
      timelinesName = o.optional("timelines", as: String.self)
      contextName = o.optional("context", as: String.self)
      guard let zone, o.isClean else { return nil }
      return ExposureSidecar(
        zone: zone, rules: rules, widgetSuggestions: suggestions, instances: instances, stackCount: stackCount,
        apps: apps, suggestionWindows: windows, timelines: nil)
    }
    var result = try json.finish(sidecar)
    let folder = (path as NSString).deletingLastPathComponent
    func beside(_ name: String) -> String { name.hasPrefix("/") || folder.isEmpty ? name : folder + "/" + name }
    if let timelinesName {
      result.timelines = try TimelineFile.read(path: beside(timelinesName), timeZone: result.zone)
    }
    if let contextName { result.context = try ContextLog.read(path: beside(contextName)) }
    return result
  }

  static func instant(_ text: String) -> Int64? {
    if case .success(.absolute(let instant)) = ISO8601.parse(text) { return instant.milliseconds }
    return nil
  }
}
