import SmartStackEngine

extension EngineOptions {
  /// The engine options every command and config starts from: `EngineOptions()` with the
  /// relevance threshold at 0.5.
  ///
  /// One definition of a *relevant moment* for the whole toolkit: a visit where some
  /// candidate has an active window (score > 0) whose normalised percentile is at least
  /// the threshold. At 0.5 a widget that always gives the same positive score (a game, a
  /// meeting; percentile 0.5 by definition) counts while its window is active; at the
  /// engine's own 0.8 it never did, so `simulate … sports-fan.json --explain` printed
  /// `relevance_honoured –` for every strategy while the default experiment (0.5) did not.
  public static var toolkitDefaults: EngineOptions {
    var options = EngineOptions()
    options.relevanceThreshold = 0.5
    return options
  }
}
