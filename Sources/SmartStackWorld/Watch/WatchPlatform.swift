import SmartStackBase
import SmartStackData
import SmartStackEngine

/// A scenario's watchOS Smart Stack (`"platform": "watchOS"`, docs/watchos.md, "The watch
/// stack"): the watch apps whose clues decide which cards are eligible at a wrist raise,
/// the version evaluated, and how many cards a raise shows.
///
/// **Cards are the stack's instances.** Every widget of every app, in file order, gives
/// its cards: a timeline widget one card (its kind, shown in any configuration, so every
/// donation of its kind matches it), a `RelevanceConfiguration` widget one card per clue
/// (`KIND#i`, configured by clue `i`'s configuration: `key=value` pairs separated by `,`
/// become parameters, any other text the parameter `configuration`). A strategy ranks
/// them like iPhone widgets; what the watch allows is decided here, before it ranks
/// (`raise(at:context:)`), and by the engine's card rules after it
/// (`WatchCardObserver`).
public struct WatchPlatform: Sendable {
  /// The version the apps are evaluated on (the apps' own `watchOS` is ignored).
  public var version: WatchVersion
  /// K: the most cards a wrist raise shows (default `defaultCards`).
  public var cards: Int
  /// The system uses only the first N `relevance()` clues of each widget; nil: all.
  public var cluePrefix: Int?
  /// The apps, in scenario order.
  public var apps: [WatchApp]
  /// The apps' files as the scenario names them, resolved (for manifests); empty for
  /// apps made in code.
  public var appFiles: [String] = []
  /// Each card's app, widget and clue (-1 for a timeline widget's one card).
  public private(set) var cardApp: [Int] = []
  public private(set) var cardWidget: [Int] = []
  public private(set) var cardClue: [Int] = []
  /// The cards as stack instances, aligned with `cardApp`.
  public private(set) var instances: [WidgetInstance] = []

  /// The default K, 2: Apple publishes no capacity for the watch stack (open question
  /// Q14); a wrist raise shows the top card and the start of the next one on the screen
  /// of a current watch, so two is what a person sees without turning the Digital Crown
  /// further (an inference, a parameter: `"cards"`).
  public static let defaultCards = 2
  /// The default wrist raises per waking day, 60, a persona's `visitsPerDay` on the
  /// watch when it gives none: a raise is a visit. Apple publishes no figure; 60 (about
  /// four an hour while awake) is an assumption to vary, not a measurement.
  public static let defaultRaisesPerDay = 60.0
  /// The largest K a scenario may set.
  public static let maximumCards = 10

  public init(version: WatchVersion, cards: Int = defaultCards, cluePrefix: Int? = nil, apps: [WatchApp]) {
    self.version = version
    self.cards = cards
    self.cluePrefix = cluePrefix
    self.apps = apps
    for (a, app) in apps.enumerated() {
      for (w, widget) in app.widgets.enumerated() {
        if widget.mode.isPinnable {
          cardApp.append(a)
          cardWidget.append(w)
          cardClue.append(-1)
          instances.append(WidgetInstance(id: widget.kind, kind: widget.kind))
        } else {
          for (c, clue) in widget.clues.enumerated() {
            cardApp.append(a)
            cardWidget.append(w)
            cardClue.append(c)
            instances.append(
              WidgetInstance(
                id: "\(widget.kind)#\(c)", kind: widget.kind, configuration: Self.parameters(clue.configuration)))
          }
        }
      }
    }
  }

  /// The rules clues are evaluated with.
  public var clueRules: ClueRules { ClueRules(version: version, prefixLength: cluePrefix) }

  /// `key=value` pairs separated by `,` (keys unique), else the parameter
  /// `configuration` with the whole text; none for empty text.
  public static func parameters(_ text: String) -> [Parameter] {
    guard !text.isEmpty else { return [] }
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.split(separator: "=", maxSplits: 1) }
    let keys = parts.map { $0.first.map(String.init) ?? "" }
    if parts.allSatisfy({ $0.count == 2 && !$0[0].isEmpty }), Set(keys).count == keys.count {
      return parts.map { Parameter(String($0[0]), String($0[1])) }
    }
    return [Parameter("configuration", text)]
  }

  /// What the watch allows at one wrist raise (`raise(at:context:)`).
  public struct Raise: Sendable, Equatable {
    /// Per card: the strategy may rank it now (eligible and not pinned).
    public var rankable: [Bool]
    /// The pinned cards, top first: each pinned timeline widget in app and widget order,
    /// or, while a relevance widget whose `associatedKind` it is has cards, those cards in
    /// clue order instead (rule 34: they "replace the timeline widget").
    public var pinned: [Int32]
    /// Per card: the system's clue priority (`ClueWeighing` rank of its best matching
    /// clue, larger first; −∞ for a card without one), what the `clues` strategy ranks by.
    public var priority: [Double]
  }

  /// The cards at `time` for a person whose context is `context` (advanced to `time`):
  ///
  /// - a relevance widget's card `KIND#i` is eligible while clue `i` matches (rules 28–33:
  ///   version, prefix, permission, context, date, group, in `WatchApp.evaluate`);
  /// - a timeline widget's card is eligible while one of its clues or relevant intents
  ///   matches, or while it is pinned;
  /// - a timeline card is replaced (not eligible, and not pinned) while a relevance widget
  ///   of its app whose `associatedKind` names it has an eligible card (rule 34);
  /// - pinned cards come first (`Raise.pinned`); the strategy ranks the other eligible
  ///   cards (`Raise.rankable`).
  ///
  /// - Complexity: O(c + w·i + w²) per app, as `WatchApp.evaluate`, plus O(cards).
  public func raise(at time: Instant, context: inout ContextCursor) -> Raise {
    context.advance(to: time)
    let n = instances.count
    var eligible = [Bool](repeating: false, count: n)
    var priority = [Double](repeating: -.infinity, count: n)
    var pinned: [Int32] = []
    let rules = clueRules
    let weighing = PriorityOrderWeighing()
    var first = 0  // the app's first card
    for app in apps {
      let rows = app.evaluate(at: time, context: context, rules: rules)
      // The app's cards by widget: the first card's index of each widget.
      var widgetFirst: [Int] = []
      var c = first
      for widget in app.widgets {
        widgetFirst.append(c)
        c += widget.mode.isPinnable ? 1 : widget.clues.count
      }
      for row in rows where row.verdict == .matches {
        let card = app.widgets[row.widget].mode.isPinnable ? widgetFirst[row.widget] : widgetFirst[row.widget] + row.index
        eligible[card] = true
        let (kind, source, index) = weighing.rank(
          MatchingClue(source: row.source, index: row.index, dateKind: row.context.dateKind))
        priority[card] = max(priority[card], -Double(kind * 1_000_000 + source * 1_000 + min(index, 999)))
      }
      // Replacement (rule 34), then pins.
      var replacedBy = [Int?](repeating: nil, count: app.widgets.count)
      for (w, widget) in app.widgets.enumerated() {
        guard case .relevanceConfiguration(let associated?) = widget.mode, let t = app.widgetIndex(kind: associated),
          replacedBy[t] == nil, app.widgets[t].mode.isPinnable
        else { continue }
        let cards = widgetFirst[w]..<(widgetFirst[w] + widget.clues.count)
        if cards.contains(where: { eligible[$0] }) { replacedBy[t] = w }
      }
      for (w, widget) in app.widgets.enumerated() where widget.mode.isPinnable {
        if let r = replacedBy[w] {
          eligible[widgetFirst[w]] = false
          if widget.pinned {
            for k in widgetFirst[r]..<(widgetFirst[r] + app.widgets[r].clues.count) where eligible[k] {
              pinned.append(Int32(k))
            }
          }
        } else if widget.pinned {
          eligible[widgetFirst[w]] = true
          pinned.append(Int32(widgetFirst[w]))
        }
      }
      first = c
    }
    var rankable = eligible
    for p in pinned { rankable[Int(p)] = false }
    return Raise(rankable: rankable, pinned: pinned, priority: priority)
  }
}
