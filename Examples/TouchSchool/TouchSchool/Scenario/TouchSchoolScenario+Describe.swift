extension TouchSchoolScenario {
  /// The stack, bottom first, one short name per screen.
  public static func screens(_ state: MainFeature.State) -> [String] {
    state.path.map { screen in
      switch screen {
      case .game: "game"
      case .rank: "rank"
      }
    }
  }

  /// One line describing what the user sees: the main screen and every screen on the stack.
  public static func describe(_ state: MainFeature.State) -> String {
    ([describeMain(state)] + state.path.map(describe)).joined(separator: " > ")
  }

  static func describeMain(_ state: MainFeature.State) -> String {
    switch state.phase {
    case .idle: return "main(not started)"
    case .loading: return "main(loading schools…)"
    case .failed(let message): return "main(error: \(message) [Retry])"
    case .loaded:
      let school =
        state.mySchool.map { school in
          "\(school.name): \(state.myTouches ?? 0) touches, rank \(state.myRank ?? 0)"
        } ?? "no school picked"
      let listed = state.searchText.isEmpty ? "" : ", \(state.visibleSchools.count) found"
      return "main(\(school); \(state.schools.count) schools\(listed))"
    }
  }

  static func describe(_ screen: MainFeature.Path.State) -> String {
    switch screen {
    case .game(let game):
      let pending = game.pendingTouches > 0 ? " (\(game.pendingTouches) waiting)" : ""
      return "game(\(game.school.name): \(game.myTouches) touches\(pending), rank \(game.myRank))"
    case .rank(let rank):
      let top = rank.rows.prefix(3).map { row in
        "\(row.rank). \(row.name)\(row.isMine ? " ★" : "") \(row.touches)"
      }
      let list = top.isEmpty ? "no touches yet" : top.joined(separator: ", ")
      let mine = rank.myRank.map { "; mine #\($0)" } ?? ""
      let panel = rank.isPanelShown ? ", panel shown" : ""
      return "rank(\(list)\(mine)\(panel))"
    }
  }
}
