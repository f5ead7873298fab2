// English and French interface strings. Lesson texts live in learn-content.js.

const listeners = new Set();

const STRINGS = {
  en: {
    skip: 'Skip to content',
    'nav.play': 'Play', 'nav.online': 'Online', 'nav.learn': 'Learn', 'nav.rules': 'Rules', 'nav.review': 'Review', 'nav.study': 'Study',
    foot: 'Oware Abapa: 12 houses, 48 seeds.', 'foot.api': 'API',
    'side.S': 'South', 'side.N': 'North',
    'board.aria': 'Oware board: {top} at the top, {bottom} at the bottom',
    'board.house': 'House {letter} of {owner}, {n} seeds',
    'board.playable': ', can be played',
    'board.store': "{side}'s store, {n} seeds captured",
    // Home
    'home.title': 'Oware Abapa, the game of sowing and capturing',
    'home.lead': 'Play the classic West African board game against a strong engine, with a friend on the same screen or online, and learn the rules step by step.',
    'home.play': 'Play the computer', 'home.hotseat': 'Two players, one screen', 'home.online': 'Play online', 'home.learn': 'Learn to play',
    'home.f1': 'Twelve houses, forty-eight seeds: sow them round the board and capture twos and threes on your opponent\'s side.',
    'home.f2': 'Hover over a house to see where its last seed lands. The coach warns you before you hand over a capture.',
    'home.f3': 'Replay your games with the engine\'s verdict on every move, set up positions and ask the engine.',
    'home.puzzles': 'Puzzles', 'home.f4': 'Find the one move that wins, or saves, clearly more than every other: positions from real games, checked by the engine and the endgame tables.',
    'nav.puzzles': 'Puzzles',
    'mis.title': 'Learn from your mistakes', 'mis.lead': 'The coach judges every move you played; each one it warns about comes back here: find a better move.',
    'mis.looking': 'The coach is going through your moves…', 'mis.none': 'The coach found no mistake among your {n} moves. Well played!',
    'mis.task': 'Move {n}: you played {move}, {verdict}. Find a better move.', 'mis.count': 'Mistake {k} of {n}',
    'mis.mistake': 'a mistake', 'mis.blunder': 'a blunder', 'mis.better': 'Better!', 'mis.notYet': 'Not yet:',
    'mis.show': 'Show the best move', 'mis.next': 'Next mistake', 'mis.retry': 'Try again', 'mis.best': 'The best move: {move}.',
    'puz.title': 'Puzzles', 'puz.lead': 'One move is clearly better than every other. Find it: play it on the board.',
    'puz.task': 'Puzzle {n}: {side} to move. Find the best move.', 'puz.daily': 'Puzzle of the day', 'puz.dailyOf': 'Puzzle of {date}', 'puz.more': 'More puzzles',
    'puz.show': 'Show the solution', 'puz.next': 'Next puzzle', 'puz.themes': 'Themes:',
    'puz.rating': 'Puzzle rating {n}', 'puz.yours': 'your rating {n}', 'puz.yoursLocal': 'your rating here {n}',
    'puz.streak': 'Streak: {n} solved in a row (best {best})',
    // Play setup
    'play.title': 'New game', 'play.mode': 'Opponent', 'play.computer': 'The computer', 'play.hotseat': 'Two players on this device',
    'play.level': 'Level', 'play.side': 'Your side', 'play.sideS': 'South (bottom)', 'play.sideN': 'North (top)', 'play.random': 'Draw lots',
    'play.start': 'Start position', 'play.startpos': 'Usual start (4 seeds per house)', 'play.custom': 'Position string',
    'play.time': 'Time control', 'play.none': 'None', 'play.permove': 'Per move (R13)', 'play.clock': 'Clock',
    'play.correspondence': 'Correspondence (days per move)', 'play.daysPerMove': 'Time for each move', 'tc.days': '{n} days per move', 'tc.days1': '1 day per move',
    'clock.days': '{d} d {h} h', 'clock.hours': '{h} h {m} min', 'class.correspondence': 'Correspondence', 'class.correspondence.what': 'Games with days for each move.',
    'mine.yourTurn': 'Your move', 'mine.theirTurn': 'Their move', 'mine.titleTurns': '({n}) Your move',
    'play.seconds': 'seconds per move', 'play.minutes': 'minutes', 'play.increment': 'increment (s)',
    'play.go': 'Start the game', 'play.name': 'Your name', 'play.names': 'Names',
    'play.levelHint': 'Measured in engine matches, each level beats the one below about two games in three or more; Master, at full strength, is about 1,900 Elo above Beginner. The lower levels miss captures and replies as a person does.',
    // Online
    'online.title': 'Play online', 'online.create': 'Create a game', 'online.public': 'List it in the lobby so anyone can join',
    'online.lobby': 'Open games', 'online.empty': 'No open game right now. Create one!', 'online.join': 'Join',
    'online.created': 'created {when}', 'online.by': 'by {name}', 'online.waits': 'you would play {side}', 'tc.permove': '{s} s per move', 'tc.clock': '{m} min + {i} s',
    // Game page
    'game.loading': 'Loading the game…', 'game.notfound': 'This game does not exist.',
    'game.toMove': '{side} to move', 'game.yourTurn': 'Your turn', 'game.theirTurn': 'Waiting for your opponent',
    'game.thinking': 'The computer is thinking…', 'game.waiting': 'Waiting for an opponent to join.',
    'game.invite': 'Invite link (gives the free seat)', 'game.spectate': 'Spectator link', 'game.copy': 'Copy', 'game.copied': 'Copied',
    'game.joinTitle': 'You are invited to play', 'game.joinBtn': 'Take the seat', 'game.spectating': 'You are watching this game.',
    'game.hint': 'Hint', 'game.undo': 'Undo', 'game.resign': 'Resign', 'game.offer': 'Offer to stop', 'game.accept': 'Accept', 'game.decline': 'Decline',
    'game.rematch': 'Rematch', 'game.newgame': 'New game', 'game.review': 'Review this game', 'game.ogn': 'Download OGN',
    'game.resignConfirm': 'Resign this game?', 'game.agreeBoth': 'Do both players agree to stop here? Each takes the seeds on their own side.',
    'game.offerFrom': '{side} proposes to stop the game, each taking the seeds of their own row.',
    'game.offerSent': 'You proposed to stop the game. Waiting for an answer.',
    'game.offerDeclined': 'The offer to stop was declined.',
    'game.rematchOffer': 'Your opponent wants a rematch.', 'game.rematchJoin': 'Play the rematch',
    'game.hintIs': 'The engine suggests {move} ({score}).',
    'game.aids': 'Learning aids', 'game.previewOpt': 'Preview where the last seed lands', 'game.coachOpt': 'Coach: warn about risky moves',
    'game.animOpt': 'Animate sowing', 'game.orientOpt': 'Turn the board to the player to move',
    'game.keys': 'Keyboard: Tab or arrow keys choose a house, Enter plays it, 1–6 play your houses from the left.', 'game.drawn': 'Lots drawn: you play {side}.', 'seat.computer': 'Computer ({name}, level {level})', 'seat.player': 'Player', 'seat.open': 'Free seat', 'seat.guest': 'Guest', 'game.moves': 'Moves', 'game.captured': '{n} captured', 'game.you': 'you', 'game.computer': 'computer', 'game.connLost': 'Connection lost: reconnecting…', 'game.connBack': 'Reconnected.',
    'game.over': 'Game over', 'game.overColon': 'Game over:', 'game.draw': 'Draw, {s}–{n}', 'game.wins': '{side} wins, {s}–{n}',
    'reason.majority': 'a player captured 25 seeds or more', 'reason.even-split': 'both players have 24',
    'reason.no-moves': 'the player to move could not play; each player took the seeds of their own row',
    'reason.repetition': 'the same position occurred for the third time', 'reason.agreement': 'the players agreed to stop',
    'reason.resignation': 'a player resigned', 'reason.time': 'a clock ran out',
    'refuse.notYours': 'Not your turn: wait for your opponent.', 'refuse.spectator': 'You are watching: only the players can move.',
    'refuse.generic': 'Move refused: {reason} ({rule}).',
    'coach.gives': 'Coach: after {move}, your opponent can capture {n} seeds next turn.',
    'coach.misses': 'Coach: another move captures more than {move}.',
    'coach.checking': 'The coach looks at {move}…',
    'coach.confirm': 'Click {move} again to play it anyway, or choose another house.',
    'coach.sacrifice': 'Coach: {move} gives something up now, but the engine judges it the best move here.',
    'preview.line': '{move}: last seed in {last}', 'preview.captures': ', captures {n}', 'preview.none': ', no capture',
    'preview.illegal': '{move} cannot be played: {reason} ({rule})',
    'say.move': '{side} plays {move}.', 'say.capture': 'Captures {n} seeds from {houses}.', 'say.slam': 'Grand slam: the capture is cancelled.',
    'say.score': 'Score: South {s}, North {n}.', 'say.lost': '{side} lost the turn (time).',
    // Errors by code
    'err.network': 'The server cannot be reached.', 'err.stale_ply': 'The game moved on; the board was updated.',
    // Review
    'review.title': 'Past games', 'review.none': 'No game yet.', 'review.open': 'Replay', 'review.import': 'Import an OGN record',
    'review.importBtn': 'Import', 'review.paste': 'Paste an OGN record here', 'review.file': 'or choose a file',
    'review.game': 'Game review', 'review.eval': 'Engine evaluation', 'review.loadingEval': 'The engine is reviewing the moves…',
    'review.first': 'Start', 'review.prev': 'Back', 'review.next': 'Forward', 'review.last': 'End',
    'review.ply': 'Move {k} of {n}', 'review.best': 'best {best}', 'review.loss': '{cp} seeds worse', 'review.good': 'best move',
    'review.study': 'Study this position', 'review.when': 'When', 'review.players': 'Players', 'review.result': 'Result', 'review.mode': 'Mode',
    // Offline (docs/WEB.md, "Offline and installable")
    'offline.needs': 'This page needs the network. It will come back by itself when the network returns.',
    'offline.title': 'No network',
    'offline.whatWorks': 'Without the network you can still play the computer or a friend on this device, take the lessons, study a position and review the games kept here.',
    'offline.playHere': 'No network: the game is played and kept on this device.',
    'offline.localGame': 'kept on this device',
    'offline.noEngine': 'This browser cannot run the engine, so the computer cannot play without the network.',
    'offline.refused': 'Not kept in your account: {why}',
    'err.invalid_request.not_finished': 'Only finished games are kept in an account.',
    'err.invalid_request.bad_client_id': 'This game’s id on the device is not valid.',
    'err.invalid_request.bad_mode': 'Only games against the computer or between two people on one device are kept.',
    'err.invalid_request.bad_level': 'The computer’s level must be 1 to 10.',
    'err.invalid_request.bad_side': 'The side must be South or North.',
    'err.invalid_request.bad_end': 'The way this game ended is not valid.',
    'err.invalid_request.too_long': 'This game is too long to keep.',
    'err.not_allowed.not_yours': 'This game already belongs to another account.',
    'err.offline_timed': 'Timed games need the network; choose “None” to play on this device.',
    'mode.computer': 'vs computer', 'mode.hotseat': 'hot-seat', 'mode.online': 'online', 'status.waiting': 'waiting', 'status.playing': 'in progress', 'status.over': 'over',
    // Study
    'study.title': 'Position editor', 'study.help': 'Click a house to add a seed, right-click or Shift+click to take one away. Switch to “play” to try moves.',
    'study.edit': 'Edit', 'study.play': 'Play moves', 'study.toMove': 'Side to move', 'study.stores': 'Stores', 'study.apply': 'Set',
    'study.ask': 'Ask the engine', 'study.clear': 'Empty board', 'study.reset': 'Start position', 'study.asPlay': 'Play it against the computer', 'study.asHotseat': 'Play it on this device',
    'study.total': 'Seeds in all: {n} (must be 48)', 'study.thinking': 'Thinking…', 'study.result': 'Engine: depth {d}',
    'verdict.best': 'best', 'verdict.good': 'good', 'verdict.inaccuracy': 'inaccuracy', 'verdict.mistake': 'mistake', 'verdict.blunder': 'blunder',
    'score.win': 'wins in {n}', 'score.loss': 'loses in {n}', 'score.cp': '{v} seeds', 'score.cp1': '{v} seeds',
    'score.tbWin': 'won (endgame tables)', 'score.tbLoss': 'lost (endgame tables)', 'score.tbDraw': 'drawn (endgame tables)',
    // Learn
    'learn.title': 'Learn Oware', 'learn.intro': 'Each lesson has a small board you can play on. Click a highlighted house to sow it; the board answers with the real rules.',
    'learn.try': 'Try it:', 'learn.reset': 'Reset', 'learn.show': 'Show me', 'learn.contents': 'Contents', 'learn.mistakes': 'Common mistakes',
    'learn.examples': 'Worked examples', 'learn.toRules': 'The rules in one page', 'learn.toLearn': 'The interactive tutorial',
    'learn.agree': 'Agree to stop', 'learn.timeout': 'Let the time run out', 'learn.lostTurn': 'The board stays as it is: {side} plays again.',
    'learn.done': 'Well done!', 'learn.over': 'Game over: {text}',
    'rules.title': 'The rules of Oware Abapa',
    'learn.tips': 'Tips',
    'rules.boardNote': 'South plays the bottom row, A to F from left to right; North the top row, a to f from its own side. Seeds travel counter-clockwise. Each store sits on its player’s right.',
    'nav.menu': 'Menu', 'aria.board': 'Board', 'aria.replay': 'Replay', 'presence.on': 'online', 'presence.off': 'offline',
    'level.1': 'Beginner', 'level.2': 'Novice', 'level.3': 'Learner', 'level.4': 'Casual', 'level.5': 'Club', 'level.6': 'Intermediate', 'level.7': 'Advanced', 'level.8': 'Strong', 'level.9': 'Expert', 'level.10': 'Master',
    'level.named': '{n} · {name}',
    'result.won': 'You won, {me}–{them}', 'result.lost': 'You lost, {me}–{them}', 'result.draw': 'Draw, {s}–{n}', 'result.sideWon': '{side} won, {s}–{n}', 'result.wonBare': 'You won', 'result.lostBare': 'You lost', 'result.sideWonBare': '{side} won',
    'why.majority.you': 'you captured 25 seeds or more', 'why.majority.them': 'your opponent captured 25 seeds or more', 'why.majority.side': '{side} captured 25 seeds or more',
    'why.resignation.you': 'you resigned', 'why.resignation.them': 'your opponent resigned', 'why.resignation.side': '{side} resigned',
    'why.time.you': 'your clock ran out', 'why.time.them': 'your opponent’s clock ran out', 'why.time.side': '{side}’s clock ran out',
    'why.even-split': 'each player captured 24 seeds',
    'why.no-moves': 'the empty row could not be fed, so each player took the seeds on their side',
    'why.repetition': 'the same position occurred for the third time, so each player took the seeds on their side',
    'why.agreement': 'the players agreed to stop, and each took the seeds on their side',
    'game.playAgain': 'Play again at the same level', 'game.share': 'Copy a link to this game', 'game.shareCopied': 'Link copied: {url}',
    'game.soundOpt': 'Sounds', 'game.notifyOpt': 'Notify me when my opponent moves in another tab', 'game.titleTurn': 'Your move', 'game.celebrate': 'Well played!', 'game.offerHint': 'The computer accepts when it sees nothing better than a draw.',
    'review.mine': 'My games', 'review.myNone': 'No game on this device yet.', 'review.continue': 'Continue', 'review.public': 'Finished online games', 'review.line': 'line', 'review.plies': '{n} plies', 'review.plies1': '1 ply',
    'illegal.empty_house': 'that house is empty', 'illegal.not_your_house': 'that house belongs to your opponent',
    'illegal.must_feed': 'your opponent’s row is empty and this move does not feed it, while another move does', 'illegal.game_over': 'the game is over', 'illegal.other': 'this move is not allowed here',
    'refuse.noRule': 'Move refused: {reason}.',
    'err.http': 'The server refused the request.', 'err.malformed': 'The server could not read the request.',
    'err.invalid_request': 'The request was refused: a value is missing or out of range.',
    'err.record': 'This game record cannot be read (line {line}, column {column}).',
    'err.invalid_position': 'This position is not valid.',
    'err.invalid_position.field_count': 'A position has 12 house counts, two stores and the side to move, joined by “-”.',
    'err.invalid_position.bad_count': 'Each count must be a whole number from 0 to 48.',
    'err.invalid_position.bad_side': 'The side to move must be S or N.',
    'err.invalid_position.wrong_total': 'The houses and stores must hold 48 seeds in all.',
    'err.invalid_move': 'That is not a move: use a letter A–F or a–f.', 'err.invalid_move.empty': 'No move was given.', 'err.invalid_move.too_long': 'Too many moves.',
    'err.game_over': 'The game has ended.', 'err.seat_taken': 'Both seats are already taken.', 'err.not_allowed': 'This is not possible in this game.', 'err.not_allowed.nothing_to_undo': 'There is no move to take back.',
    'err.missing_token': 'Only the players of this game can do that.', 'err.bad_token': 'This link or seat does not belong to this game.',
    'err.bad_origin': 'The request came from another site and was refused.', 'err.not_found': 'Not found.', 'err.too_large': 'That is too large to send.',
    'err.busy': 'The engine is busy; try again in a moment.', 'err.busy.engine_in_use': 'You already have an analysis running and one waiting; wait for them to finish.', 'err.busy.engine_queue_full': 'The engine is busy with other players’ requests; try again in a moment.', 'err.not_allowed.game_in_progress': 'An online game can be reviewed once it is over.', 'err.not_allowed.spectators_sign_in': 'Sign in to chat with the other spectators while the game is played.', 'err.invalid_request.rated_needs_clock': 'A rated game needs a clock or a limit per move.', 'err.rate_limited.seeks_account': 'Your account already has 3 games waiting in the lobby: wait for a player, or let one lapse.', 'err.rate_limited.seeks_address': 'Your connection already has 10 games waiting in the lobby: wait for a player, or let one lapse.', 'err.rate_limited.sockets': 'Too many games open from your connection: close some tabs.', 'err.not_allowed.chat_full': 'This game’s chat is full.', 'err.rate_limited': 'Too many requests; wait a moment and try again.', 'err.internal': 'The server had a problem; try again.',
    'study.totalBad': 'Seeds in all: {n}. A position holds exactly 48: add or remove {d}.',
    // Accounts, ratings, profiles, seeks, chat
    'nav.ratings': 'Ratings', 'nav.signin': 'Sign in',
    'nav.watch': 'Watch', 'player.follow': 'Follow', 'player.unfollow': 'Stop following', 'player.followed': 'You follow {name}: their games show in your account.',
    'player.block': 'Block', 'player.unblock': 'Unblock', 'player.blockConfirm': 'Block {name}? Neither of you will be able to join the other’s games, offer a rematch or write to the other in a game.',
    'player.blocked': '{name} is blocked.', 'player.unblocked': '{name} is no longer blocked.', 'player.report': 'Report', 'player.reportWhy': 'What is wrong?',
    'player.reason.cheating': 'Cheating (help from a program)', 'player.reason.abuse': 'Insults or harassment', 'player.reason.other': 'Something else', 'player.reportDetails': 'Details (optional, 500 characters at most)',
    'player.reportSend': 'Send the report', 'player.reported': 'Thank you: the report was sent to the site’s operator.',
    'account.following': 'Players you follow', 'account.followingNone': 'You follow nobody yet: open a player’s profile and choose Follow.', 'account.blockedList': 'Blocked players', 'account.playingNow': 'playing now',
    'err.not_allowed.blocked': 'One of you has blocked the other: you cannot play or talk together.', 'err.not_allowed.account_closed': 'This account was closed by the site’s operator.', 'err.rate_limited.reports': 'You have sent many reports today; try again tomorrow.', 'err.invalid_request.self': 'That is your own account.',
 'watch.title': 'Games being played now', 'watch.featured': 'Featured game', 'watch.now': 'Being played now', 'watch.open': 'Watch this game',
    'watch.none': 'No public game is being played right now.', 'watch.toLobby': 'Find an opponent in the lobby', 'watch.watch': 'Watch',
    'watch.toMove': '{name} to move', 'watch.lastMove': 'last move {when}', 'watch.ended': 'The game is over.', 'account.menuTitle': 'Signed in as {name}: your account',
    'err.invalid_request.correspondence_days': 'Correspondence games have 1, 3, 7 or 14 days per move.',
    'err.invalid_request.correspondence_online_only': 'Correspondence is for online games.',
    'err.invalid_request.engine': 'The browser can play the computer’s moves only in untimed games against the computer.',
    'err.invalid_request.name_reserved': 'This name belongs to the site or to an account: choose another, or sign in.',
    'err.not_allowed.not_online': 'This is for online games only.',
    'err.not_allowed.not_your_game': 'Your account holds no seat in this game.',
    'err.invalid_request.rating_range': 'Only rated games have a rating range.',
    'err.invalid_request.report_reason': 'Choose a reason for the report.',
    'err.not_allowed.same_player': 'A rated game needs two different players.',
    'err.rate_limited.sign_in_account': 'Too many wrong passwords for this account, some from your connection: wait a moment.',
    'err.rate_limited.sign_in_pair': 'Too many wrong passwords for this account from your connection: wait a moment.',
    'err.not_allowed.too_many': 'You follow or block as many players as one may.',
    'nav.tournaments': 'Tournaments', 'tour.title': 'Tournaments', 'tour.list': 'Tournaments to join and results', 'tour.arena': 'Arena',
    'tour.swiss': 'Swiss', 'tour.starts': 'Starts {when}', 'tour.round': 'Round {n} of {of}', 'tour.ends': 'Ends {when}',
    'tour.cancelled': 'Called off: too few players', 'tour.finished': 'Finished {when}',
    'tour.signIn': 'Sign in to create or join a tournament: its games are rated.', 'tour.create': 'Create a tournament', 'tour.kind': 'Kind',
    'tour.arenaHelp': 'An arena lasts a fixed time: when your game ends, you are paired again at once. A win scores 2, a draw 1; after two wins in a row, each win scores double.',
    'tour.swissHelp': 'A Swiss tournament has a fixed number of rounds: each round pairs players with the same score, never twice the same opponent. An odd player out gets a bye (one point).',
    'tour.name': 'Name', 'tour.defaultName': '{name}’s tournament', 'tour.clock': 'Clock', 'tour.length': 'Length', 'tour.minutes': '{n} min',
    'tour.rounds': 'Rounds', 'tour.startsIn': 'Starts in', 'tour.createBtn': 'Create the tournament', 'tour.players1': '1 player',
    'tour.players': '{n} players', 'tour.open': 'Open', 'tour.results': 'Results', 'tour.none': 'No tournament yet: create the first one.',
    'tour.standings': 'Standings', 'tour.games': 'Games',
    'tour.swissStarted': 'This Swiss tournament has started: it takes no new players. You can watch it.',
    'tour.notIn': 'You have not joined this tournament.', 'tour.join': 'Join',
    'tour.youLeft': 'You left this tournament; your results stay in the standings.',
    'tour.yourGame': 'Your game is ready: it has started, your clock is running.', 'tour.toGame': 'Go to your game',
    'tour.youPaused': 'You are paused: you will not be paired until you come back.', 'tour.resume': 'Come back', 'tour.leave': 'Leave the tournament',
    'tour.youWait': 'You are in. Keep this page open: your first game starts here.',
    'tour.youWaitPair': 'Waiting for an opponent: keep this page open, your next game starts in a moment.',
    'tour.youWaitRound': 'Waiting for the other games of the round to end.', 'tour.pause': 'Pause',
    'tour.leaveSure': 'Leave this tournament for good? Your results stay, but you cannot come back.', 'tour.by': 'created by {name}',
    'tour.next': 'next round {when}', 'tour.player': 'Player', 'tour.points': 'Points', 'tour.buchholz': 'Buch.',
    'tour.buchholzLong': 'Buchholz: the sum of your opponents’ points', 'tour.sb': 'S-B',
    'tour.sbLong': 'Sonneborn-Berger: the points of the opponents you beat, and half those of the ones you drew with', 'tour.sheet': 'Games',
    'tour.onFire': 'On a streak: the next win counts double', 'tour.paused': 'paused', 'tour.left': 'left', 'tour.playing': 'Playing now: watch',
    'tour.noPlayers': 'Nobody has joined yet.', 'tour.inPlay': 'in play', 'tour.roundShort': 'R{n}', 'tour.bye': 'bye (1 point)',
    'tour.noGames': 'No game yet.', 'tour.back': 'Back to the tournament', 'err.invalid_request.tournament_kind': 'Choose arena or Swiss.',
    'err.invalid_request.tournament_name': 'Give the tournament a name of 1 to 40 characters.',
    'err.invalid_request.tournament_clock': 'A tournament needs a clock from 30 seconds to 60 minutes.',
    'err.invalid_request.tournament_start': 'A tournament starts within 7 days.',
    'err.invalid_request.tournament_length': 'An arena lasts from 1 to 720 minutes.',
    'err.invalid_request.tournament_rounds': 'A Swiss tournament has 1 to 15 rounds.',
    'err.not_allowed.too_many_tournaments': 'You already have 3 tournaments to play: wait until one is over.',
    'err.not_allowed.tournament_over': 'This tournament is over.', 'err.not_allowed.tournament_left': 'You left this tournament: you cannot come back.',
    'err.not_allowed.tournament_started': 'This Swiss tournament has started: it takes no new players.',
    'err.not_allowed.tournament_full': 'This tournament is full.', 'err.not_allowed.not_in_tournament': 'You have not joined this tournament.',
    'err.not_allowed.tournament_game': 'Not in a tournament game: the tournament pairs the players.',
    'account.title': 'Your account', 'account.why': 'An account is optional. With one, your games follow you to any device, and you can play rated games and appear on the leaderboard.',
    'account.signin': 'Sign in', 'account.signinBtn': 'Sign in', 'account.signup': 'Create an account', 'account.signupBtn': 'Create the account',
    'account.username': 'Username', 'account.password': 'Password',
    'account.nameRule': '3 to 20 characters: letters, digits, _ or -, starting with a letter.',
    'account.passwordRule': '8 to 128 characters, not your username.',
    'account.hello': 'Signed in as {name}', 'account.ratings': 'Ratings', 'account.profile': 'My profile', 'account.signout': 'Sign out',
    'account.settings': 'Account settings',
    'account.changePassword': 'Change the password', 'account.oldPassword': 'Current password', 'account.newPassword': 'New password', 'account.changeBtn': 'Change the password',
    'account.passwordChanged': 'Password changed. Your other devices are signed out.',
    'account.delete': 'Delete the account', 'account.export': 'Download all my data (JSON)', 'account.deleteWhat': 'Your games stay, with your seat shown as “Deleted player”; your name, password and ratings are removed.',
    'account.deleteBtn': 'Delete my account', 'account.deleteConfirm': 'Delete the account {name} for good?',
    'class.fast': 'Fast clock', 'class.slow': 'Slow clock', 'class.per_move': 'Per move',
    'class.fast.what': 'Clocks where the initial time plus 40 increments is under 10 minutes.',
    'class.slow.what': 'Longer clocks, and games without a clock.',
    'class.per_move.what': 'Games with a time limit for each move (R13).',
    'player.notFound': 'There is no player of that name.', 'player.since': 'Account created {when}', 'player.class': 'Kind of game', 'player.rating': 'Rating', 'player.games': 'Games',
    'player.provisional': 'A rating with “?” is provisional: it is still uncertain after too few games.',
    'player.history': 'Rating history', 'player.finished': 'Finished games', 'player.noGames': 'No finished game yet.', 'player.noHistory': 'No rated game yet.',
    'player.won': 'Won', 'player.lost': 'Lost', 'player.draw': 'Draw', 'player.vs': 'against', 'player.gamesAxis': 'rated games', 'player.player': 'Player',
    'ratings.title': 'Leaderboard', 'ratings.empty': 'Nobody here yet: play a rated game to appear.', 'ratings.provisional': 'A rating with a ? is provisional (too few games yet): it is listed after the others, without a rank.',
    'ratings.note': 'Ratings are Glicko-2, one per kind of game, from rated online games between two accounts.',
    'play.presets': 'Common clocks', 'play.preset': '{m} minutes plus {i} seconds a move',
    'board.flip': 'Turn the board round', 'list.resigned': 'by resignation', 'list.onTime': 'on time',
    'game.takeback': 'Ask to take back', 'game.takebackSent': 'Take-back asked: waiting for your opponent.', 'game.takebackFrom': '{side} asks to take their last move back.', 'game.takebackDeclined': 'Your opponent declined the take-back.',
    'err.not_allowed.no_request': 'There is no take-back request to answer.', 'err.not_allowed.rated': 'Moves cannot be taken back in rated games.',
    'game.abort': 'Abort', 'game.abortedOff': 'This game was called off before each player had moved: it counts for nothing.', 'err.not_allowed.too_late': 'Each player has moved: it is too late to abort; you can resign.',
    'game.cancel': 'Cancel this game', 'game.cancelled': 'This game was cancelled before anyone joined.', 'game.toLobby': 'Back to the lobby',
    'seek.outOfRange': 'Open to {range}; your rating is {r}.', 'seek.leaves': 'A listed game stays in the lobby while this page is open.',
    'err.game_over.cancelled': 'This game was called off before it started.', 'err.not_allowed.not_waiting': 'Only a game still waiting for its opponent can be cancelled.',
    'seek.what': 'Listed in the lobby, your game is a seek: the first player who accepts it plays you. Unlisted, it waits for the player you send the invite link to.',
    'seek.as': 'You play as {name}.', 'seek.kind': 'Kind of game', 'seek.casual': 'Casual', 'seek.rated': 'Rated', 'game.aborted': 'Aborted: the game ended before each player had made a move, so it does not count for the ratings.', 'game.abortedShort': 'Aborted (not rated)', 'seek.ratedIn': 'Rated ({cls})',
    'seek.signInFor': 'Rated games are between accounts.', 'seek.ratedClock': 'Rated games are played on a clock: a player who leaves loses on time.', 'seek.countsIn': 'It counts for your rating in: {cls}.',
    'seek.rangeLegend': 'Opponent’s rating (optional)', 'seek.from': 'from', 'seek.to': 'to', 'seek.yourRating': 'Your rating ({cls}): {r}',
    'seek.range': 'rating {min}–{max}', 'seek.min': 'rating {min} or more', 'seek.max': 'rating up to {max}', 'seek.yours': 'Your game', 'seek.rangeBad': 'A rating range goes from a lower to a higher rating, both whole numbers from 0 to 4000.', 'tc.none': 'no clock',
    'review.myNoneAccount': 'No game on this account or this device yet.',
    'chat.title': 'Chat', 'chat.mute': 'Hide my opponent’s messages', 'chat.empty': 'No message yet.', 'chat.earlier': 'Earlier messages', 'chat.message': 'Message', 'chat.send': 'Send',
    'chat.placeholder': 'Say something to your opponent', 'chat.placeholderSpectators': 'Say something to the other spectators',
    'chat.spectatorNote': 'You read the players’ messages; yours go to the other spectators only.',
    'chat.spectator': 'Spectator', 'chat.spectatorsRoom': 'spectators',
    'err.bad_credentials': 'Wrong username or password.', 'err.username_taken': 'This username is taken: choose another.',
    'err.invalid_request.username_length': 'A username has 3 to 20 characters.',
    'err.invalid_request.username_characters': 'A username uses letters, digits, _ and - only, and starts with a letter.',
    'err.invalid_request.username_reserved': 'This username is reserved: choose another.',
    'err.invalid_request.password_length': 'A password has 8 to 128 characters.',
    'err.invalid_request.password_is_username': 'The password must not be the username.',
    'err.not_signed_in': 'Sign in first.', 'err.bad_csrf': 'Your session changed in another tab: reload the page.',
    'err.not_allowed.out_of_range': 'Your rating is outside the range this player asked for.',
    'err.too_large.chat': 'A message holds at most 500 characters.',
    'err.rate_limited.seconds': 'Too many tries: wait {n} s and try again.', 'err.rate_limited.minutes': 'Too many tries: wait {n} min and try again.', 'seat.deleted': 'Deleted player',
    'game.ratingChange': 'Your rating ({cls}): {was} → {now}', 'game.ratingNow': 'Your rating ({cls}) is now {now}',
    'err.invalid_request.empty': 'The message is empty.', 'err.invalid_request.characters': 'A message cannot hold control or invisible characters.',
    'err.not_allowed.nothing_to_take_back': 'There is no move to take back.', 'err.not_allowed.no_move_of_yours': 'You have no move to take back.',
  },
  fr: {
    skip: 'Aller au contenu',
    'nav.play': 'Jouer', 'nav.online': 'En ligne', 'nav.learn': 'Apprendre', 'nav.rules': 'Règles', 'nav.review': 'Revoir', 'nav.study': 'Étude',
    foot: 'Awalé Abapa : 12 cases, 48 graines.', 'foot.api': 'API',
    'side.S': 'Sud', 'side.N': 'Nord',
    'board.aria': 'Plateau d’awalé : {top} en haut, {bottom} en bas',
    'board.house': 'Case {letter} de {owner}, {n} graines',
    'board.playable': ', jouable',
    'board.store': 'Grenier de {side}, {n} graines capturées',
    'home.title': 'L’awalé Abapa, le jeu des semailles et des prises',
    'home.lead': 'Jouez au grand jeu de semailles d’Afrique de l’Ouest contre un moteur solide, à deux sur le même écran ou en ligne, et apprenez les règles pas à pas.',
    'home.play': 'Jouer contre l’ordinateur', 'home.hotseat': 'À deux sur un écran', 'home.online': 'Jouer en ligne', 'home.learn': 'Apprendre à jouer',
    'home.f1': 'Douze cases, quarante-huit graines : semez-les autour du plateau et prenez les deux et les trois dans le camp adverse.',
    'home.f2': 'Survolez une case pour voir où tombera sa dernière graine. Le coach vous prévient avant que vous n’offriez une prise.',
    'home.f3': 'Revoyez vos parties avec l’avis du moteur sur chaque coup, composez des positions et interrogez le moteur.',
    'home.puzzles': 'Problèmes', 'home.f4': 'Trouvez le seul coup qui gagne, ou sauve, nettement plus que tous les autres : des positions de vraies parties, vérifiées par le moteur et les tables de finales.',
    'nav.puzzles': 'Problèmes',
    'mis.title': 'Apprendre de ses erreurs', 'mis.lead': 'Le coach juge chacun de vos coups ; chaque coup qu’il signale revient ici : trouvez mieux.',
    'mis.looking': 'Le coach passe vos coups en revue…', 'mis.none': 'Le coach n’a trouvé aucune erreur parmi vos {n} coups. Bien joué !',
    'mis.task': 'Coup {n} : vous avez joué {move}, {verdict}. Trouvez un meilleur coup.', 'mis.count': 'Erreur {k} sur {n}',
    'mis.mistake': 'une erreur', 'mis.blunder': 'une faute grave', 'mis.better': 'Mieux !', 'mis.notYet': 'Pas encore :',
    'mis.show': 'Voir le meilleur coup', 'mis.next': 'Erreur suivante', 'mis.retry': 'Réessayer', 'mis.best': 'Le meilleur coup : {move}.',
    'puz.title': 'Problèmes', 'puz.lead': 'Un coup est nettement meilleur que tous les autres. Trouvez-le : jouez-le sur le plateau.',
    'puz.task': 'Problème {n} : {side} au trait. Trouvez le meilleur coup.', 'puz.daily': 'Problème du jour', 'puz.dailyOf': 'Problème du {date}', 'puz.more': 'D’autres problèmes',
    'puz.show': 'Voir la solution', 'puz.next': 'Problème suivant', 'puz.themes': 'Thèmes :',
    'puz.rating': 'Classement du problème {n}', 'puz.yours': 'votre classement {n}', 'puz.yoursLocal': 'votre classement ici {n}',
    'puz.streak': 'Série : {n} résolus d’affilée (record {best})',
    'play.title': 'Nouvelle partie', 'play.mode': 'Adversaire', 'play.computer': 'L’ordinateur', 'play.hotseat': 'Deux joueurs sur cet appareil',
    'play.level': 'Niveau', 'play.side': 'Votre camp', 'play.sideS': 'Sud (en bas)', 'play.sideN': 'Nord (en haut)', 'play.random': 'Tirer au sort',
    'play.start': 'Position de départ', 'play.startpos': 'Départ habituel (4 graines par case)', 'play.custom': 'Chaîne de position',
    'play.time': 'Cadence', 'play.none': 'Aucune', 'play.permove': 'Par coup (R13)', 'play.clock': 'Pendule',
    'play.correspondence': 'Par correspondance (jours par coup)', 'play.daysPerMove': 'Temps pour chaque coup', 'tc.days': '{n} jours par coup', 'tc.days1': '1 jour par coup',
    'clock.days': '{d} j {h} h', 'clock.hours': '{h} h {m} min', 'class.correspondence': 'Correspondance', 'class.correspondence.what': 'Parties avec des jours pour chaque coup.',
    'mine.yourTurn': 'À vous de jouer', 'mine.theirTurn': 'À l’adversaire', 'mine.titleTurns': '({n}) À vous de jouer',
    'play.seconds': 'secondes par coup', 'play.minutes': 'minutes', 'play.increment': 'incrément (s)',
    'play.go': 'Commencer la partie', 'play.name': 'Votre nom', 'play.names': 'Noms',
    'play.levelHint': 'Mesuré en matchs entre moteurs, chaque niveau bat le précédent environ deux parties sur trois ou plus ; Maître, de toutes ses forces, a environ 1 900 points Elo de plus que Débutant. Les premiers niveaux manquent des prises et des ripostes, comme une personne.',
    'online.title': 'Jouer en ligne', 'online.create': 'Créer une partie', 'online.public': 'L’afficher dans le salon pour que tout le monde puisse la rejoindre',
    'online.lobby': 'Parties ouvertes', 'online.empty': 'Aucune partie ouverte pour l’instant. Créez-en une !', 'online.join': 'Rejoindre',
    'online.created': 'créée {when}', 'online.by': 'par {name}', 'online.waits': 'vous joueriez {side}', 'tc.permove': '{s} s par coup', 'tc.clock': '{m} min + {i} s',
    'game.loading': 'Chargement de la partie…', 'game.notfound': 'Cette partie n’existe pas.',
    'game.toMove': 'Au tour de {side}', 'game.yourTurn': 'À vous de jouer', 'game.theirTurn': 'En attente de votre adversaire',
    'game.thinking': 'L’ordinateur réfléchit…', 'game.waiting': 'En attente d’un adversaire.',
    'game.invite': 'Lien d’invitation (donne la place libre)', 'game.spectate': 'Lien spectateur', 'game.copy': 'Copier', 'game.copied': 'Copié',
    'game.joinTitle': 'Vous êtes invité à jouer', 'game.joinBtn': 'Prendre la place', 'game.spectating': 'Vous regardez cette partie.',
    'game.hint': 'Indice', 'game.undo': 'Annuler', 'game.resign': 'Abandonner', 'game.offer': 'Proposer d’arrêter', 'game.accept': 'Accepter', 'game.decline': 'Refuser',
    'game.rematch': 'Revanche', 'game.newgame': 'Nouvelle partie', 'game.review': 'Revoir la partie', 'game.ogn': 'Télécharger l’OGN',
    'game.resignConfirm': 'Abandonner cette partie ?', 'game.agreeBoth': 'Les deux joueurs sont-ils d’accord pour arrêter ici ? Chacun prend les graines de son côté.',
    'game.offerFrom': '{side} propose d’arrêter la partie ; chacun prendrait les graines de sa rangée.',
    'game.offerSent': 'Vous avez proposé d’arrêter. En attente d’une réponse.',
    'game.offerDeclined': 'La proposition d’arrêt a été refusée.',
    'game.rematchOffer': 'Votre adversaire veut une revanche.', 'game.rematchJoin': 'Jouer la revanche',
    'game.hintIs': 'Le moteur propose {move} ({score}).',
    'game.aids': 'Aides', 'game.previewOpt': 'Montrer où tombe la dernière graine', 'game.coachOpt': 'Coach : prévenir des coups risqués',
    'game.animOpt': 'Animer les semailles', 'game.orientOpt': 'Tourner le plateau vers le joueur au trait',
    'game.keys': 'Clavier : Tab ou les flèches choisissent une case, Entrée la joue, 1 à 6 jouent vos cases depuis la gauche.', 'game.drawn': 'Tirage au sort : vous jouez {side}.', 'seat.computer': 'Ordinateur ({name}, niveau {level})', 'seat.player': 'Joueur', 'seat.open': 'Place libre', 'seat.guest': 'Invité', 'game.moves': 'Coups', 'game.captured': '{n} capturées', 'game.you': 'vous', 'game.computer': 'ordinateur', 'game.connLost': 'Connexion perdue : reconnexion…', 'game.connBack': 'Reconnecté.',
    'game.over': 'Partie terminée', 'game.overColon': 'Partie terminée :', 'game.draw': 'Partie nulle, {s}–{n}', 'game.wins': '{side} gagne, {s}–{n}',
    'reason.majority': 'un joueur a capturé 25 graines ou plus', 'reason.even-split': 'chacun a 24 graines',
    'reason.no-moves': 'le joueur au trait ne pouvait plus jouer ; chacun a pris les graines de sa rangée',
    'reason.repetition': 'la même position s’est présentée pour la troisième fois', 'reason.agreement': 'les joueurs ont convenu d’arrêter',
    'reason.resignation': 'un joueur a abandonné', 'reason.time': 'une pendule est tombée',
    'refuse.notYours': 'Ce n’est pas votre tour : attendez votre adversaire.', 'refuse.spectator': 'Vous regardez : seuls les joueurs peuvent jouer.',
    'refuse.generic': 'Coup refusé : {reason} ({rule}).',
    'coach.gives': 'Coach : après {move}, votre adversaire peut prendre {n} graines au coup suivant.',
    'coach.misses': 'Coach : un autre coup prend plus que {move}.',
    'coach.checking': 'Le coach examine {move}…',
    'coach.confirm': 'Cliquez encore sur {move} pour le jouer quand même, ou choisissez une autre case.',
    'coach.sacrifice': 'Coach : {move} cède quelque chose maintenant, mais le moteur le juge le meilleur coup ici.',
    'preview.line': '{move} : dernière graine en {last}', 'preview.captures': ', prend {n}', 'preview.none': ', aucune prise',
    'preview.illegal': '{move} est impossible : {reason} ({rule})',
    'say.move': '{side} joue {move}.', 'say.capture': 'Prend {n} graines en {houses}.', 'say.slam': 'Prise totale : la prise est annulée.',
    'say.score': 'Score : Sud {s}, Nord {n}.', 'say.lost': '{side} perd son tour (temps).',
    'err.network': 'Le serveur est injoignable.', 'err.stale_ply': 'La partie a avancé ; le plateau est à jour.',
    'review.title': 'Parties jouées', 'review.none': 'Aucune partie pour l’instant.', 'review.open': 'Rejouer', 'review.import': 'Importer une partie OGN',
    'review.importBtn': 'Importer', 'review.paste': 'Collez ici une partie au format OGN', 'review.file': 'ou choisissez un fichier',
    'review.game': 'Analyse de la partie', 'review.eval': 'Évaluation du moteur', 'review.loadingEval': 'Le moteur examine les coups…',
    'review.first': 'Début', 'review.prev': 'Reculer', 'review.next': 'Avancer', 'review.last': 'Fin',
    'review.ply': 'Coup {k} sur {n}', 'review.best': 'meilleur {best}', 'review.loss': '{cp} graines de moins', 'review.good': 'meilleur coup',
    'review.study': 'Étudier cette position', 'review.when': 'Date', 'review.players': 'Joueurs', 'review.result': 'Résultat', 'review.mode': 'Type',
    'offline.needs': 'Cette page a besoin du réseau. Elle reviendra d’elle-même quand le réseau sera de retour.',
    'offline.title': 'Pas de réseau',
    'offline.whatWorks': 'Sans réseau, vous pouvez toujours jouer contre l’ordinateur ou à deux sur cet appareil, suivre les leçons, étudier une position et revoir les parties gardées ici.',
    'offline.playHere': 'Pas de réseau : la partie se joue et se garde sur cet appareil.',
    'offline.localGame': 'gardée sur cet appareil',
    'offline.noEngine': 'Ce navigateur ne peut pas faire tourner le moteur : l’ordinateur ne peut pas jouer sans réseau.',
    'offline.refused': 'Non gardée dans votre compte : {why}',
    'err.invalid_request.not_finished': 'Seules les parties terminées sont gardées dans un compte.',
    'err.invalid_request.bad_client_id': 'L’identifiant de cette partie sur l’appareil n’est pas valable.',
    'err.invalid_request.bad_mode': 'Seules les parties contre l’ordinateur ou à deux sur un appareil sont gardées.',
    'err.invalid_request.bad_level': 'Le niveau de l’ordinateur va de 1 à 10.',
    'err.invalid_request.bad_side': 'Le camp doit être Sud ou Nord.',
    'err.invalid_request.bad_end': 'La fin de cette partie n’est pas valable.',
    'err.invalid_request.too_long': 'Cette partie est trop longue pour être gardée.',
    'err.not_allowed.not_yours': 'Cette partie appartient déjà à un autre compte.',
    'err.offline_timed': 'Les parties à la pendule ont besoin du réseau ; choisissez « Aucune » pour jouer sur cet appareil.',
    'mode.computer': 'contre l’ordinateur', 'mode.hotseat': 'à deux', 'mode.online': 'en ligne', 'status.waiting': 'en attente', 'status.playing': 'en cours', 'status.over': 'terminée',
    'study.title': 'Éditeur de position', 'study.help': 'Cliquez sur une case pour ajouter une graine, clic droit ou Maj+clic pour en retirer une. Passez en « jouer » pour essayer des coups.',
    'study.edit': 'Modifier', 'study.play': 'Jouer des coups', 'study.toMove': 'Camp au trait', 'study.stores': 'Greniers', 'study.apply': 'Appliquer',
    'study.ask': 'Demander au moteur', 'study.clear': 'Plateau vide', 'study.reset': 'Position de départ', 'study.asPlay': 'La jouer contre l’ordinateur', 'study.asHotseat': 'La jouer sur cet appareil',
    'study.total': 'Graines en tout : {n} (il en faut 48)', 'study.thinking': 'Réflexion…', 'study.result': 'Moteur : profondeur {d}',
    'score.win': 'gagne en {n}', 'score.loss': 'perd en {n}', 'score.cp': '{v} graines', 'score.cp1': '{v} graine',
    'score.tbWin': 'gagné (tables de finales)', 'score.tbLoss': 'perdu (tables de finales)', 'score.tbDraw': 'nulle (tables de finales)',
    'learn.title': 'Apprendre l’awalé', 'learn.intro': 'Chaque leçon a un petit plateau sur lequel vous pouvez jouer. Cliquez sur une case en surbrillance pour la semer ; le plateau répond avec les vraies règles.',
    'learn.try': 'Essayez :', 'learn.reset': 'Recommencer', 'learn.show': 'Montrez-moi', 'learn.contents': 'Sommaire', 'learn.mistakes': 'Les erreurs fréquentes',
    'learn.examples': 'Exemples commentés', 'learn.toRules': 'Les règles sur une page', 'learn.toLearn': 'Le tutoriel interactif',
    'learn.agree': 'Arrêter d’un commun accord', 'learn.timeout': 'Laisser passer le temps', 'learn.lostTurn': 'Le plateau reste tel quel\u00a0: {side} rejoue.',
    'learn.done': 'Bravo !', 'learn.over': 'Partie terminée : {text}',
    'rules.title': 'Les règles de l’awalé Abapa',
    'learn.tips': 'Conseils',
    'rules.boardNote': 'Sud joue en bas, de A à F de gauche à droite ; Nord en haut, de a à f vu de son côté. Les graines tournent dans le sens inverse des aiguilles d’une montre. Chaque grenier est à droite de son joueur.',
    'nav.menu': 'Menu', 'aria.board': 'Plateau', 'aria.replay': 'Relecture', 'presence.on': 'en ligne', 'presence.off': 'hors ligne',
    'level.1': 'Débutant', 'level.2': 'Novice', 'level.3': 'Apprenti', 'level.4': 'Amateur', 'level.5': 'Club', 'level.6': 'Intermédiaire', 'level.7': 'Avancé', 'level.8': 'Fort', 'level.9': 'Expert', 'level.10': 'Maître',
    'level.named': '{n} · {name}',
    'result.won': 'Vous avez gagné, {me}–{them}', 'result.lost': 'Vous avez perdu, {me}–{them}', 'result.draw': 'Partie nulle, {s}–{n}', 'result.sideWon': '{side} a gagné, {s}–{n}', 'result.wonBare': 'Vous avez gagné', 'result.lostBare': 'Vous avez perdu', 'result.sideWonBare': '{side} a gagné',
    'why.majority.you': 'vous avez capturé 25 graines ou plus', 'why.majority.them': 'votre adversaire a capturé 25 graines ou plus', 'why.majority.side': '{side} a capturé 25 graines ou plus',
    'why.resignation.you': 'vous avez abandonné', 'why.resignation.them': 'votre adversaire a abandonné', 'why.resignation.side': '{side} a abandonné',
    'why.time.you': 'votre pendule est tombée', 'why.time.them': 'la pendule de votre adversaire est tombée', 'why.time.side': 'la pendule de {side} est tombée',
    'why.even-split': 'chacun a capturé 24 graines',
    'why.no-moves': 'la rangée vide ne pouvait plus être nourrie, chacun a donc pris les graines de son côté',
    'why.repetition': 'la même position s’est présentée pour la troisième fois, chacun a donc pris les graines de son côté',
    'why.agreement': 'les joueurs ont convenu d’arrêter, et chacun a pris les graines de son côté',
    'game.playAgain': 'Rejouer au même niveau', 'game.share': 'Copier un lien vers cette partie', 'game.shareCopied': 'Lien copié : {url}',
    'game.soundOpt': 'Sons', 'game.notifyOpt': 'Me prévenir quand mon adversaire joue pendant que je suis dans un autre onglet', 'game.titleTurn': 'À vous de jouer', 'game.celebrate': 'Bien joué !', 'game.offerHint': 'L’ordinateur accepte quand il ne voit rien de mieux qu’une nulle.',
    'review.mine': 'Mes parties', 'review.myNone': 'Aucune partie sur cet appareil pour l’instant.', 'review.continue': 'Continuer', 'review.public': 'Parties en ligne terminées', 'review.line': 'suite', 'review.plies': '{n} demi-coups', 'review.plies1': '1 demi-coup',
    'illegal.empty_house': 'cette case est vide', 'illegal.not_your_house': 'cette case appartient à votre adversaire',
    'illegal.must_feed': 'la rangée adverse est vide et ce coup ne la nourrit pas, alors qu’un autre coup le peut', 'illegal.game_over': 'la partie est terminée', 'illegal.other': 'ce coup n’est pas permis ici',
    'refuse.noRule': 'Coup refusé : {reason}.',
    'err.http': 'Le serveur a refusé la demande.', 'err.malformed': 'Le serveur n’a pas pu lire la demande.',
    'err.invalid_request': 'Demande refusée : une valeur manque ou sort des limites.',
    'err.record': 'Cette partie ne peut pas être lue (ligne {line}, colonne {column}).',
    'err.invalid_position': 'Cette position n’est pas valable.',
    'err.invalid_position.field_count': 'Une position compte 12 cases, deux greniers et le camp au trait, séparés par « - ».',
    'err.invalid_position.bad_count': 'Chaque nombre doit être un entier de 0 à 48.',
    'err.invalid_position.bad_side': 'Le camp au trait doit être S ou N.',
    'err.invalid_position.wrong_total': 'Les cases et les greniers doivent contenir 48 graines en tout.',
    'err.invalid_move': 'Ce n’est pas un coup : utilisez une lettre de A à F ou de a à f.', 'err.invalid_move.empty': 'Aucun coup n’a été donné.', 'err.invalid_move.too_long': 'Trop de coups.',
    'err.game_over': 'La partie est terminée.', 'err.seat_taken': 'Les deux places sont déjà prises.', 'err.not_allowed': 'Ce n’est pas possible dans cette partie.', 'err.not_allowed.nothing_to_undo': 'Il n’y a aucun coup à reprendre.',
    'err.missing_token': 'Seuls les joueurs de cette partie peuvent faire cela.', 'err.bad_token': 'Ce lien ou cette place n’appartient pas à cette partie.',
    'err.bad_origin': 'La demande venait d’un autre site et a été refusée.', 'err.not_found': 'Introuvable.', 'err.too_large': 'C’est trop gros pour être envoyé.',
    'err.busy': 'Le moteur est occupé ; réessayez dans un instant.', 'err.busy.engine_in_use': 'Vous avez déjà une analyse en cours et une en attente ; attendez qu’elles finissent.', 'err.busy.engine_queue_full': 'Le moteur est occupé par les demandes d’autres joueurs ; réessayez dans un instant.', 'err.not_allowed.game_in_progress': 'Une partie en ligne peut être analysée une fois terminée.', 'err.not_allowed.spectators_sign_in': 'Connectez-vous pour discuter avec les autres spectateurs pendant la partie.', 'err.invalid_request.rated_needs_clock': 'Une partie classée se joue avec une pendule ou une limite par coup.', 'err.rate_limited.seeks_account': 'Votre compte a déjà 3 parties en attente dans le salon : attendez un joueur, ou laissez-en une expirer.', 'err.rate_limited.seeks_address': 'Votre connexion a déjà 10 parties en attente dans le salon : attendez un joueur, ou laissez-en une expirer.', 'err.rate_limited.sockets': 'Trop de parties ouvertes depuis votre connexion : fermez quelques onglets.', 'err.not_allowed.chat_full': 'La discussion de cette partie est pleine.', 'err.rate_limited': 'Trop de demandes ; attendez un peu et réessayez.', 'err.internal': 'Le serveur a eu un problème ; réessayez.',
    'study.totalBad': 'Graines en tout : {n}. Une position en contient exactement 48 : ajoutez-en ou retirez-en {d}.',
    'nav.ratings': 'Classements', 'nav.signin': 'Connexion',
    'nav.watch': 'Regarder', 'player.follow': 'Suivre', 'player.unfollow': 'Ne plus suivre', 'player.followed': 'Vous suivez {name} : ses parties s’affichent dans votre compte.',
    'player.block': 'Bloquer', 'player.unblock': 'Débloquer', 'player.blockConfirm': 'Bloquer {name} ? Aucun de vous deux ne pourra rejoindre les parties de l’autre, proposer une revanche ni écrire à l’autre pendant une partie.',
    'player.blocked': '{name} est bloqué.', 'player.unblocked': '{name} n’est plus bloqué.', 'player.report': 'Signaler', 'player.reportWhy': 'Quel est le problème ?',
    'player.reason.cheating': 'Triche (aide d’un programme)', 'player.reason.abuse': 'Insultes ou harcèlement', 'player.reason.other': 'Autre chose', 'player.reportDetails': 'Précisions (facultatif, 500 caractères au plus)',
    'player.reportSend': 'Envoyer le signalement', 'player.reported': 'Merci : le signalement a été transmis à l’exploitant du site.',
    'account.following': 'Joueurs que vous suivez', 'account.followingNone': 'Vous ne suivez personne : ouvrez le profil d’un joueur et choisissez Suivre.', 'account.blockedList': 'Joueurs bloqués', 'account.playingNow': 'joue en ce moment',
    'err.not_allowed.blocked': 'L’un de vous a bloqué l’autre : vous ne pouvez ni jouer ni discuter ensemble.', 'err.not_allowed.account_closed': 'Ce compte a été fermé par l’exploitant du site.', 'err.rate_limited.reports': 'Vous avez envoyé beaucoup de signalements aujourd’hui ; réessayez demain.', 'err.invalid_request.self': 'C’est votre propre compte.',
 'watch.title': 'Parties en cours', 'watch.featured': 'Partie à la une', 'watch.now': 'En cours', 'watch.open': 'Regarder cette partie',
    'watch.none': 'Aucune partie publique n’est en cours.', 'watch.toLobby': 'Trouver un adversaire dans le salon', 'watch.watch': 'Regarder',
    'watch.toMove': 'Au tour de {name}', 'watch.lastMove': 'dernier coup {when}', 'watch.ended': 'La partie est terminée.', 'account.menuTitle': 'Connecté en tant que {name} : votre compte',
    'err.invalid_request.correspondence_days': 'Les parties par correspondance accordent 1, 3, 7 ou 14 jours par coup.',
    'err.invalid_request.correspondence_online_only': 'La correspondance se joue en ligne.',
    'err.invalid_request.engine': 'Le navigateur ne joue les coups de l’ordinateur que dans les parties sans pendule contre l’ordinateur.',
    'err.invalid_request.name_reserved': 'Ce nom appartient au site ou à un compte : choisissez-en un autre, ou connectez-vous.',
    'err.not_allowed.not_online': 'C’est réservé aux parties en ligne.',
    'err.not_allowed.not_your_game': 'Votre compte n’a pas de place dans cette partie.',
    'err.invalid_request.rating_range': 'Seules les parties classées ont une fourchette de classement.',
    'err.invalid_request.report_reason': 'Choisissez le motif du signalement.',
    'err.not_allowed.same_player': 'Une partie classée se joue entre deux joueurs différents.',
    'err.rate_limited.sign_in_account': 'Trop de mots de passe erronés pour ce compte, dont certains depuis votre connexion : patientez un moment.',
    'err.rate_limited.sign_in_pair': 'Trop de mots de passe erronés pour ce compte depuis votre connexion : patientez un moment.',
    'err.not_allowed.too_many': 'Vous suivez ou bloquez déjà autant de joueurs que possible.',
    'nav.tournaments': 'Tournois', 'tour.title': 'Tournois', 'tour.list': 'Tournois à rejoindre et résultats', 'tour.arena': 'Arène',
    'tour.swiss': 'Suisse', 'tour.starts': 'Commence {when}', 'tour.round': 'Ronde {n} sur {of}', 'tour.ends': 'Se termine {when}',
    'tour.cancelled': 'Annulé : trop peu de joueurs', 'tour.finished': 'Terminé {when}',
    'tour.signIn': 'Connectez-vous pour créer un tournoi ou y participer : ses parties sont classées.', 'tour.create': 'Créer un tournoi',
    'tour.kind': 'Type',
    'tour.arenaHelp': 'Une arène dure un temps fixé : dès que votre partie se termine, vous avez un nouvel adversaire. Une victoire rapporte 2 points, une nulle 1 ; après deux victoires de suite, chaque victoire compte double.',
    'tour.swissHelp': 'Un tournoi suisse a un nombre fixé de rondes : chaque ronde oppose des joueurs au même score, jamais deux fois les mêmes. Un joueur sans adversaire est exempt (un point).',
    'tour.name': 'Nom', 'tour.defaultName': 'Tournoi de {name}', 'tour.clock': 'Cadence', 'tour.length': 'Durée', 'tour.minutes': '{n} min',
    'tour.rounds': 'Rondes', 'tour.startsIn': 'Commence dans', 'tour.createBtn': 'Créer le tournoi', 'tour.players1': '1 joueur',
    'tour.players': '{n} joueurs', 'tour.open': 'Ouvrir', 'tour.results': 'Résultats', 'tour.none': 'Aucun tournoi pour l’instant : créez le premier.',
    'tour.standings': 'Classement', 'tour.games': 'Parties',
    'tour.swissStarted': 'Ce tournoi suisse a commencé : il n’accepte plus de joueurs. Vous pouvez le suivre.',
    'tour.notIn': 'Vous ne participez pas à ce tournoi.', 'tour.join': 'Participer',
    'tour.youLeft': 'Vous avez quitté ce tournoi ; vos résultats restent au classement.',
    'tour.yourGame': 'Votre partie est prête : elle a commencé, votre pendule tourne.', 'tour.toGame': 'Aller à votre partie',
    'tour.youPaused': 'Vous êtes en pause : vous n’aurez pas d’adversaire avant de revenir.', 'tour.resume': 'Revenir',
    'tour.leave': 'Quitter le tournoi', 'tour.youWait': 'Vous êtes inscrit. Gardez cette page ouverte : votre première partie commencera ici.',
    'tour.youWaitPair': 'En attente d’un adversaire : gardez cette page ouverte, votre prochaine partie commence dans un instant.',
    'tour.youWaitRound': 'En attente de la fin des autres parties de la ronde.', 'tour.pause': 'Pause',
    'tour.leaveSure': 'Quitter ce tournoi pour de bon ? Vos résultats restent, mais vous ne pourrez pas revenir.', 'tour.by': 'créé par {name}',
    'tour.next': 'prochaine ronde {when}', 'tour.player': 'Joueur', 'tour.points': 'Points', 'tour.buchholz': 'Buch.',
    'tour.buchholzLong': 'Buchholz : la somme des points de vos adversaires', 'tour.sb': 'S-B',
    'tour.sbLong': 'Sonneborn-Berger : les points des adversaires battus, et la moitié de ceux des adversaires avec qui vous avez fait nulle',
    'tour.sheet': 'Parties', 'tour.onFire': 'En série : la prochaine victoire compte double', 'tour.paused': 'en pause', 'tour.left': 'parti',
    'tour.playing': 'Joue en ce moment : regarder', 'tour.noPlayers': 'Personne ne s’est encore inscrit.', 'tour.inPlay': 'en cours',
    'tour.roundShort': 'R{n}', 'tour.bye': 'exempt (1 point)', 'tour.noGames': 'Pas encore de partie.', 'tour.back': 'Retour au tournoi',
    'err.invalid_request.tournament_kind': 'Choisissez arène ou suisse.',
    'err.invalid_request.tournament_name': 'Donnez au tournoi un nom de 1 à 40 caractères.',
    'err.invalid_request.tournament_clock': 'Un tournoi se joue avec une pendule de 30 secondes à 60 minutes.',
    'err.invalid_request.tournament_start': 'Un tournoi commence dans les 7 jours.',
    'err.invalid_request.tournament_length': 'Une arène dure de 1 à 720 minutes.',
    'err.invalid_request.tournament_rounds': 'Un tournoi suisse a de 1 à 15 rondes.',
    'err.not_allowed.too_many_tournaments': 'Vous avez déjà 3 tournois à jouer : attendez que l’un d’eux soit terminé.',
    'err.not_allowed.tournament_over': 'Ce tournoi est terminé.',
    'err.not_allowed.tournament_left': 'Vous avez quitté ce tournoi : vous ne pouvez pas revenir.',
    'err.not_allowed.tournament_started': 'Ce tournoi suisse a commencé : il n’accepte plus de joueurs.',
    'err.not_allowed.tournament_full': 'Ce tournoi est complet.', 'err.not_allowed.not_in_tournament': 'Vous ne participez pas à ce tournoi.',
    'err.not_allowed.tournament_game': 'Pas dans une partie de tournoi : c’est le tournoi qui choisit les adversaires.',
    'account.title': 'Votre compte', 'account.why': 'Le compte est facultatif. Avec lui, vos parties vous suivent sur tous vos appareils, et vous pouvez jouer des parties classées et figurer au classement.',
    'account.signin': 'Se connecter', 'account.signinBtn': 'Se connecter', 'account.signup': 'Créer un compte', 'account.signupBtn': 'Créer le compte',
    'account.username': 'Nom d’utilisateur', 'account.password': 'Mot de passe',
    'account.nameRule': 'De 3 à 20 caractères : lettres, chiffres, _ ou -, en commençant par une lettre.',
    'account.passwordRule': 'De 8 à 128 caractères, différent de votre nom d’utilisateur.',
    'account.hello': 'Connecté en tant que {name}', 'account.ratings': 'Cotes', 'account.profile': 'Mon profil', 'account.signout': 'Se déconnecter',
    'account.settings': 'Réglages du compte',
    'account.changePassword': 'Changer de mot de passe', 'account.oldPassword': 'Mot de passe actuel', 'account.newPassword': 'Nouveau mot de passe', 'account.changeBtn': 'Changer le mot de passe',
    'account.passwordChanged': 'Mot de passe changé. Vos autres appareils sont déconnectés.',
    'account.delete': 'Supprimer le compte', 'account.export': 'Télécharger toutes mes données (JSON)', 'account.deleteWhat': 'Vos parties restent, votre place y apparaît comme « Joueur supprimé » ; votre nom, votre mot de passe et vos cotes sont effacés.',
    'account.deleteBtn': 'Supprimer mon compte', 'account.deleteConfirm': 'Supprimer définitivement le compte {name} ?',
    'class.fast': 'Pendule rapide', 'class.slow': 'Pendule lente', 'class.per_move': 'Par coup',
    'class.fast.what': 'Pendules dont le temps initial plus 40 incréments fait moins de 10 minutes.',
    'class.slow.what': 'Pendules plus longues, et parties sans pendule.',
    'class.per_move.what': 'Parties avec un temps limité pour chaque coup (R13).',
    'player.notFound': 'Aucun joueur ne porte ce nom.', 'player.since': 'Compte créé {when}', 'player.class': 'Type de partie', 'player.rating': 'Cote', 'player.games': 'Parties',
    'player.provisional': 'Une cote suivie de « ? » est provisoire : elle reste incertaine après trop peu de parties.',
    'player.history': 'Évolution de la cote', 'player.finished': 'Parties terminées', 'player.noGames': 'Aucune partie terminée pour l’instant.', 'player.noHistory': 'Aucune partie classée pour l’instant.',
    'player.won': 'Gagnée', 'player.lost': 'Perdue', 'player.draw': 'Nulle', 'player.vs': 'contre', 'player.gamesAxis': 'parties classées', 'player.player': 'Joueur',
    'ratings.title': 'Classement', 'ratings.empty': 'Personne pour l’instant : jouez une partie classée pour y apparaître.', 'ratings.provisional': 'Une cote suivie de ? est provisoire (trop peu de parties) : elle est listée après les autres, sans rang.',
    'ratings.note': 'Les cotes sont calculées par Glicko-2, une par type de partie, à partir des parties classées en ligne entre deux comptes.',
    'play.presets': 'Cadences courantes', 'play.preset': '{m} minutes plus {i} secondes par coup',
    'board.flip': 'Retourner le plateau', 'list.resigned': 'par abandon', 'list.onTime': 'au temps',
    'game.takeback': 'Demander à reprendre', 'game.takebackSent': 'Reprise demandée : en attente de votre adversaire.', 'game.takebackFrom': '{side} demande à reprendre son dernier coup.', 'game.takebackDeclined': 'Votre adversaire a refusé la reprise.',
    'err.not_allowed.no_request': 'Il n’y a pas de demande de reprise à laquelle répondre.', 'err.not_allowed.rated': 'On ne reprend pas de coup dans une partie classée.',
    'game.abort': 'Annuler la partie', 'game.abortedOff': 'Cette partie a été annulée avant que chaque joueur ait joué : elle ne compte pas.', 'err.not_allowed.too_late': 'Chaque joueur a joué : il est trop tard pour annuler ; vous pouvez abandonner.',
    'game.cancel': 'Annuler cette partie', 'game.cancelled': 'Cette partie a été annulée avant que quelqu’un la rejoigne.', 'game.toLobby': 'Retour au salon',
    'seek.outOfRange': 'Réservée à : {range} ; votre cote est {r}.', 'seek.leaves': 'Une partie affichée reste dans le salon tant que cette page est ouverte.',
    'err.game_over.cancelled': 'Cette partie a été annulée avant de commencer.', 'err.not_allowed.not_waiting': 'Seule une partie qui attend encore son adversaire peut être annulée.',
    'seek.what': 'Affichée dans le salon, votre partie est une proposition : le premier joueur qui l’accepte vous affronte. Sinon, elle attend le joueur à qui vous envoyez le lien d’invitation.',
    'seek.as': 'Vous jouez sous le nom {name}.', 'seek.kind': 'Type de partie', 'seek.casual': 'Amicale', 'seek.rated': 'Classée', 'game.aborted': 'Annulée : la partie s’est terminée avant que chaque joueur ait joué un coup, elle ne compte donc pas pour le classement.', 'game.abortedShort': 'Annulée (non classée)', 'seek.ratedIn': 'Classée ({cls})',
    'seek.signInFor': 'Les parties classées se jouent entre comptes.', 'seek.ratedClock': 'Les parties classées se jouent à la pendule : qui abandonne la partie perd au temps.', 'seek.countsIn': 'Elle compte pour votre cote : {cls}.',
    'seek.rangeLegend': 'Cote de l’adversaire (facultatif)', 'seek.from': 'de', 'seek.to': 'à', 'seek.yourRating': 'Votre cote ({cls}) : {r}',
    'seek.range': 'cote de {min} à {max}', 'seek.min': 'cote d’au moins {min}', 'seek.max': 'cote d’au plus {max}', 'seek.yours': 'Votre partie', 'seek.rangeBad': 'Une fourchette de cotes va d’une cote basse à une cote haute, deux nombres entiers de 0 à 4000.', 'tc.none': 'sans pendule',
    'review.myNoneAccount': 'Aucune partie sur ce compte ni sur cet appareil pour l’instant.',
    'chat.title': 'Discussion', 'chat.mute': 'Masquer les messages de mon adversaire', 'chat.empty': 'Aucun message pour l’instant.', 'chat.earlier': 'Messages précédents', 'chat.message': 'Message', 'chat.send': 'Envoyer',
    'chat.placeholder': 'Écrivez à votre adversaire', 'chat.placeholderSpectators': 'Écrivez aux autres spectateurs',
    'chat.spectatorNote': 'Vous lisez les messages des joueurs ; les vôtres ne vont qu’aux autres spectateurs.',
    'chat.spectator': 'Spectateur', 'chat.spectatorsRoom': 'spectateurs',
    'err.bad_credentials': 'Nom d’utilisateur ou mot de passe incorrect.', 'err.username_taken': 'Ce nom d’utilisateur est déjà pris : choisissez-en un autre.',
    'err.invalid_request.username_length': 'Un nom d’utilisateur compte de 3 à 20 caractères.',
    'err.invalid_request.username_characters': 'Un nom d’utilisateur ne contient que des lettres, des chiffres, _ et -, et commence par une lettre.',
    'err.invalid_request.username_reserved': 'Ce nom d’utilisateur est réservé : choisissez-en un autre.',
    'err.invalid_request.password_length': 'Un mot de passe compte de 8 à 128 caractères.',
    'err.invalid_request.password_is_username': 'Le mot de passe ne doit pas être le nom d’utilisateur.',
    'err.not_signed_in': 'Connectez-vous d’abord.', 'err.bad_csrf': 'Votre session a changé dans un autre onglet : rechargez la page.',
    'err.not_allowed.out_of_range': 'Votre cote est hors de la fourchette demandée par ce joueur.',
    'err.too_large.chat': 'Un message compte au plus 500 caractères.',
    'err.rate_limited.seconds': 'Trop d’essais : attendez {n} s et réessayez.', 'err.rate_limited.minutes': 'Trop d’essais : attendez {n} min et réessayez.', 'seat.deleted': 'Joueur supprimé',
    'game.ratingChange': 'Votre cote ({cls}) : {was} → {now}', 'game.ratingNow': 'Votre cote ({cls}) est maintenant de {now}',
    'err.invalid_request.empty': 'Le message est vide.', 'err.invalid_request.characters': 'Un message ne peut pas contenir de caractères de contrôle ou invisibles.',
    'err.not_allowed.nothing_to_take_back': 'Il n’y a aucun coup à reprendre.', 'err.not_allowed.no_move_of_yours': 'Vous n’avez aucun coup à reprendre.',
  },
};

function detect() {
  const q = new URLSearchParams(location.search).get('lang');
  if (q === 'en' || q === 'fr') return q;
  const saved = localStorage.getItem('oware.lang');
  if (saved === 'en' || saved === 'fr') return saved;
  return (navigator.language || 'en').toLowerCase().startsWith('fr') ? 'fr' : 'en';
}

let current = detect();

export const lang = () => current;

export function setLang(l) {
  if (l !== 'en' && l !== 'fr') return;
  current = l;
  localStorage.setItem('oware.lang', l);
  document.documentElement.lang = l;
  for (const f of listeners) f(l);
}

export function onLangChange(f) { listeners.add(f); return () => listeners.delete(f); }

/** Looks up a string and fills {placeholders}. Missing French falls back to English. */
export function t(key, vars = {}) {
  const s = STRINGS[current][key] ?? STRINGS.en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (_, k) => (vars[k] ?? `{${k}}`));
}

/** Picks the current language's text from an {en, fr} pair. */
export const tr = (pair) => (pair ? pair[current] ?? pair.en : '');

export function sideName(s) { return t(s === 'S' ? 'side.S' : 'side.N'); }

export function formatScore(score) {
  if (!score) return '';
  if (score.win_in != null) return t('score.win', { n: score.win_in });
  if (score.loss_in != null) return t('score.loss', { n: score.loss_in });
  // The tables prove the result but keep no distance to it.
  if (score.kind === 'tablebase_win') return t('score.tbWin');
  if (score.kind === 'tablebase_loss') return t('score.tbLoss');
  if (score.kind === 'tablebase_draw') return t('score.tbDraw');
  // As the session words it (oware-session `ScoreKind::short`): the minus
  // sign U+2212, a decimal comma in French, and in French the singular
  // below 2 as shown ("+1,3 graine", "2,0 graines").
  const shown = Math.abs(score.cp / 100).toFixed(1);
  const sign = score.cp < 0 && shown !== '0.0' ? '\u2212' : '+';
  const v = `${sign}${lang() === 'fr' ? shown.replace('.', ',') : shown}`;
  return t(Number(shown) < 2 ? 'score.cp1' : 'score.cp', { v });
}

const ILLEGAL = ['empty_house', 'not_your_house', 'must_feed', 'game_over'];
// Before the server sent `reason` codes, a refusal named only its rule.
const ILLEGAL_BY_RULE = { R3: 'empty_house', R8: 'must_feed', 'R9/R10': 'game_over' };
const has = (key) => key in STRINGS.en;

/** Why a move is illegal, in the page's language, from the core's reason
 * code (or, failing that, the rule id); never from the server's English. */
export function illegalReason(reason, rule) {
  const code = ILLEGAL.includes(reason) ? reason : ILLEGAL_BY_RULE[rule];
  return t(code ? `illegal.${code}` : 'illegal.other');
}

/** A refused move as a sentence: from an error or a preview's `refusal`
 * ({code?, reason?, rule?}). */
export function refusalText(ref) {
  const reason = illegalReason(ref?.code && ILLEGAL.includes(ref.code) ? ref.code : ref?.reason, ref?.rule);
  return ref?.rule ? t('refuse.generic', { reason, rule: ref.rule }) : t('refuse.noRule', { reason });
}

/** Any refusal from the server ({code, reason?, rule?}, e.g. an ApiError or
 * a WebSocket `error` event) in the page's language, chosen by its code. */
export function errorText(e) {
  const code = e?.code || 'http';
  if (code === 'illegal_move') return refusalText(e);
  if (code === 'not_your_turn') return t('refuse.notYours');
  if (code === 'network' || code === 'stale_ply') return t(`err.${code}`);
  if (code === 'rate_limited' && e.retryAfter) {
    const s = Math.ceil(e.retryAfter);
    return s > 90 ? t('err.rate_limited.minutes', { n: Math.ceil(s / 60) }) : t('err.rate_limited.seconds', { n: s });
  }
  if (e.reason && has(`err.${code}.${e.reason}`)) return t(`err.${code}.${e.reason}`);
  // A record refused at a place: say where, and why when the rules say it.
  if (e.line) {
    const where = t('err.record', { line: e.line, column: e.column ?? '?' });
    return e.rule ? `${where} ${refusalText(e)}` : where;
  }
  return t(has(`err.${code}`) ? `err.${code}` : 'err.http');
}

/** A level's number with its name ("3 · Learner"). */
export const levelName = (n) => t('level.named', { n, name: t(`level.${n}`) });

/** A seat's display name: the computer and the server's default names are
 * shown in the current language; names people chose are kept as typed. */
export function seatName(seat, side, level) {
  if (!seat) return sideName(side);
  if (seat.kind === 'computer') {
    const n = level ?? (String(seat.name || '').match(/\d+/) || [''])[0];
    return t('seat.computer', { level: n, name: t(`level.${n}`) });
  }
  if (seat.taken === false && seat.kind !== 'computer') return t('seat.open');
  if (!seat.name) return sideName(side);
  if (seat.name === 'Player') return t('seat.player');
  if (seat.name === 'Guest') return t('seat.guest');
  if (seat.name === 'Deleted player') return t('seat.deleted');
  return seat.name;
}

export { STRINGS };
