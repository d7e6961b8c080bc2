import SmartStackBase

/// The system's side of clue evaluation: the things Apple leaves open, each with a
/// documented default (docs/watchos.md, "Defaults").
public struct ClueRules: Sendable {
  /// The watchOS version evaluated.
  public var version: WatchVersion
  /// How many of a widget's `relevance()` clues the system uses, from the first; nil
  /// (the default) uses them all. Reference rule 28: "the system might decide to utilize
  /// only a subset of the provided relevances".
  public var prefixLength: Int?
  /// Who wins a relevance group (Q11).
  public var weighing: any ClueWeighing

  public init(version: WatchVersion, prefixLength: Int? = nil, weighing: any ClueWeighing = PriorityOrderWeighing()) {
    self.version = version
    self.prefixLength = prefixLength
    self.weighing = weighing
  }
}

extension WatchApp {
  /// Evaluates every clue at `time` against `context` (advanced to `time`).
  ///
  /// Rows come per widget in the app's order: its `relevance()` clues in priority order,
  /// then the relevant intents in force (`intents(at:)`) that name it, in the set's order.
  /// Each clue first gets a verdict of its own (`ClueDropReason` gives the checks and
  /// their order). Then, per relevance group (`WatchWidget.Group`: the app's default
  /// group, a named group, or none for `ungrouped`), when two or more members have a
  /// matching clue, `rules.weighing` picks one and the others' matching clues are dropped
  /// with `group`. Last, cards (`EvaluatedClue.card`) and `associatedKind` replacements
  /// (`EvaluatedClue.replacedBy`) are filled in.
  ///
  /// - Complexity: O(c + w·i + w²) for c clues, w widgets and i current intents.
  public func evaluate(at time: Instant, context: ContextCursor, rules: ClueRules) -> [EvaluatedClue] {
    let intents = intents(at: time)
    var rows: [EvaluatedClue] = []
    var rowsOf: [[Int]] = []
    for (w, widget) in widgets.enumerated() {
      var own: [Int] = []
      let clues = widget.clues.enumerated().map { (ClueSource.relevance, $0.offset, $0.element.configuration, $0.element.context) }
        + intents.enumerated().filter { $0.element.widget == widget.kind }
        .map { (ClueSource.intent, $0.offset, $0.element.clue.configuration, $0.element.clue.context) }
      for (source, index, configuration, clueContext) in clues {
        own.append(rows.count)
        rows.append(
          EvaluatedClue(
            widget: w, source: source, index: index, configuration: configuration, context: clueContext,
            verdict: verdict(clueContext, source: source, index: index, widget: widget, time: time, context: context, rules: rules)))
      }
      rowsOf.append(own)
    }
    resolveGroups(&rows, rowsOf: rowsOf, rules: rules)
    assignCards(&rows, rowsOf: rowsOf)
    return rows
  }

  /// One clue's verdict before groups (`ClueDropReason`'s order).
  private func verdict(
    _ clue: WatchClueContext, source: ClueSource, index: Int, widget: WatchWidget, time: Instant,
    context: ContextCursor, rules: ClueRules
  ) -> ClueVerdict {
    let needed = max(clue.since, source.since, widget.mode.since)
    if rules.version < needed { return .dropped(.notOnVersion(needed)) }
    if source == .relevance, let prefix = rules.prefixLength, index >= prefix {
      return .dropped(.priorityTruncated(prefix: prefix))
    }
    if let permission = clue.permission, !permissions.contains(permission) {
      return .dropped(.noPermission(permission))
    }
    let value = clue.signal.flatMap { context[$0] }
    if let signal = clue.signal, WatchClueContext.isUnknown(value, signal) { return .dropped(.noContext(signal)) }
    if clue.matches(value: value, at: time) { return .matches }
    guard let signal = clue.signal, let value else { return .dropped(.outsideDate) }
    return .dropped(.contextDoesNotMatch(signal, value: value))
  }

  /// The group key of each widget: its group's name, or nil for `ungrouped`.
  private func resolveGroups(_ rows: inout [EvaluatedClue], rowsOf: [[Int]], rules: ClueRules) {
    var keys: [String] = []  // groups in order of their first widget
    for widget in widgets where widget.group != .ungrouped && !keys.contains(widget.group.name) {
      keys.append(widget.group.name)
    }
    for key in keys {
      let candidates = widgets.indices.filter { widgets[$0].group != .ungrouped && widgets[$0].group.name == key }
        .compactMap { w -> GroupCandidate? in
          let matches = rowsOf[w].filter { rows[$0].verdict == .matches }.map {
            MatchingClue(source: rows[$0].source, index: rows[$0].index, dateKind: rows[$0].context.dateKind)
          }
          return matches.isEmpty ? nil : GroupCandidate(widget: w, kind: widgets[w].kind, matches: matches)
        }
      guard candidates.count >= 2 else { continue }
      let winner = candidates[rules.weighing.winner(of: candidates)]
      for loser in candidates where loser.widget != winner.widget {
        for r in rowsOf[loser.widget] where rows[r].verdict == .matches {
          rows[r].verdict = .dropped(.group(name: key, winner: winner.kind))
        }
      }
    }
  }

  /// Cards of matching clues, then `associatedKind` replacements.
  private func assignCards(_ rows: inout [EvaluatedClue], rowsOf: [[Int]]) {
    for (w, widget) in widgets.enumerated() {
      for r in rowsOf[w] where rows[r].verdict == .matches {
        rows[r].card = widget.mode.isPinnable ? widget.kind : "\(widget.kind)#\(rows[r].index)"
      }
    }
    for (w, widget) in widgets.enumerated() {
      guard case .relevanceConfiguration(let associated?) = widget.mode,
        rowsOf[w].contains(where: { rows[$0].card != nil }), let target = widgetIndex(kind: associated)
      else { continue }
      for r in rowsOf[target] where rows[r].card != nil && rows[r].replacedBy == nil {
        rows[r].replacedBy = widget.kind
      }
    }
  }
}
