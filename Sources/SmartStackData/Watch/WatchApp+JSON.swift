import SmartStackBase

extension WatchApp {
  /// Reads a watch app file (format: docs/watchos.md, "The app file").
  ///
  /// - Parameter zone: the zone naive local times (`2026-03-02T07:30`) are read in.
  /// - Throws: `InputFileError` when the file cannot be read; `DiagnosticList` with every
  ///   problem found, each as `FILE:LINE:COLUMN: key.path: message`. Never a partial app.
  public static func read(path: String, zone: ZoneRules = .utc) throws -> WatchApp {
    try read(bytes: try FileIO.readBytes(path), file: path, zone: zone)
  }

  /// Reads a watch app file from its bytes; `file` names it in diagnostics.
  ///
  /// - Complexity: O(n) in the file's size, plus O(w²) to compare w widget kinds.
  public static func read(bytes: [UInt8], file: String, zone: ZoneRules = .utc) throws -> WatchApp {
    var json = JSONDecoding(file: file, bytes: bytes)
    guard let root = json.parseDocument() else { return try json.finish(nil) }
    let app = json.decodeObject(root) { o -> WatchApp? in
      o.acceptComments()
      let name = o.optional("app", as: String.self) ?? ""
      let version = o.optional("watchOS") { item, json -> WatchVersion? in
        json.check(Int(json: item, in: &json), at: item, { WatchVersion(major: $0) != nil }) {
          "expected a watchOS version: one of \(WatchVersion.list), found \($0)"
        }.flatMap(WatchVersion.init(major:))
      }
      let permissions = o.optional("permissions") { item, json in readPermissions(item, &json) }
      let widgetItems = o.requireElements("widgets")
      let widgets = widgetItems.map { items in items.map { WidgetDraft.read($0, &o.json, zone: zone) } }
      let updates = o.optionalArray("relevantIntents") { item, json in readUpdate(item, &json, zone: zone) }
      guard let widgets else { return nil }
      checkWidgets(widgets, &o.json)
      let kinds = widgets.map { $0?.widget }
      if let updates { checkIntents(updates, kinds: kinds, &o.json) }
      guard o.isClean else { return nil }
      return WatchApp(
        name: name, version: version ?? .watchOS26, permissions: permissions ?? [],
        widgets: widgets.compactMap { $0?.widget },
        intentUpdates: (updates ?? []).enumerated().sorted {
          $0.element.update.time != $1.element.update.time
            ? $0.element.update.time < $1.element.update.time : $0.offset < $1.offset
        }.map(\.element.update))
    }
    return try json.finish(app)
  }

  /// `["location", "fitness"]`: each once, returned in `WatchPermission` order.
  private static func readPermissions(_ item: JSONItem, _ json: inout JSONDecoding) -> [WatchPermission]? {
    guard let items = json.requireArray(item) else { return nil }
    var seen: [WatchPermission] = []
    for element in items {
      guard let permission = WatchPermission(json: element, in: &json) else { continue }
      if seen.contains(permission) {
        json.report("duplicate permission \(JSONEscaping.quoted(permission.rawValue))", at: element)
      }
      seen.append(permission)
    }
    return seen.sorted()
  }

  /// A widget as read, with the items later checks report at.
  struct WidgetDraft {
    var widget: WatchWidget
    var kindItem: JSONItem
    var pinnedItem: JSONItem?
    var associatedItem: JSONItem?

    /// `{"kind", "mode", "associatedKind"?, "group"?, "pinned"?, "relevance": [...]}`.
    static func read(_ item: JSONItem, _ json: inout JSONDecoding, zone: ZoneRules) -> WidgetDraft? {
      json.decodeObject(item) { o -> WidgetDraft? in
        let kind = o.require("kind", as: String.self, where: { !$0.isEmpty }) { _ in "expected a non-empty widget kind" }
        let mode = o.require("mode", as: ModeName.self)
        let associated = o.optional("associatedKind", as: String.self, where: { !$0.isEmpty }) { _ in
          "expected a non-empty widget kind"
        }
        let group = o.optional("group", as: String.self, where: { !$0.isEmpty }) { _ in
          "expected \"default\", \"ungrouped\" or a group name"
        }
        let pinned = o.optional("pinned", as: Bool.self)
        let clues = o.requireArray("relevance") { item, json in readClue(item, &json, zone: zone) }
        guard let kind, let mode, let clues, let kindItem = o.member("kind"), o.isClean else { return nil }
        let widget = WatchWidget(
          kind: kind,
          mode: mode == .timeline ? .timeline : .relevanceConfiguration(associatedKind: associated),
          group: group.map { $0 == "default" ? .appDefault : $0 == "ungrouped" ? .ungrouped : .named($0) }
            ?? .appDefault,
          pinned: pinned ?? false, clues: clues)
        return WidgetDraft(
          widget: widget, kindItem: kindItem, pinnedItem: pinned == true ? o.member("pinned") : nil,
          associatedItem: associated == nil ? nil : o.member("associatedKind"))
      }
    }
  }

  /// The `mode` names.
  enum ModeName: String, CaseIterable, JSONDecodable { case timeline, relevanceConfiguration }

  /// Kinds are unique; only a timeline widget is pinned; `associatedKind` is a
  /// relevance widget's and names another widget of the app, a timeline one.
  private static func checkWidgets(_ drafts: [WidgetDraft?], _ json: inout JSONDecoding) {
    for (index, draft) in drafts.enumerated() {
      guard let draft else { continue }
      let widget = draft.widget
      if let first = drafts[..<index].firstIndex(where: { $0?.widget.kind == widget.kind }) {
        json.report(
          "duplicate widget kind \(JSONEscaping.quoted(widget.kind)) (first used by widgets[\(first)])",
          at: draft.kindItem)
      }
      if let pinned = draft.pinnedItem, !widget.mode.isPinnable {
        json.report(
          "a relevanceConfiguration widget cannot be pinned: people can't add or pin relevant widgets, "
            + "only timeline widgets (remove \"pinned\" or make the mode \"timeline\")",
          at: pinned)
      }
      guard let item = draft.associatedItem, case .relevanceConfiguration(let associated?) = widget.mode
      else {
        if let item = draft.associatedItem {
          json.report("\"associatedKind\" belongs to a relevanceConfiguration widget, not a timeline widget", at: item)
        }
        continue
      }
      switch drafts.firstIndex(where: { $0?.widget.kind == associated }) {
      case nil:
        json.report("no widget of kind \(JSONEscaping.quoted(associated)) in this app", at: item)
      case let other? where !(drafts[other]?.widget.mode.isPinnable ?? true):
        json.report(
          "associatedKind \(JSONEscaping.quoted(associated)) is a relevanceConfiguration widget: "
            + "it must name the timeline widget the cards replace", at: item)
      default: break
      }
    }
  }
}
