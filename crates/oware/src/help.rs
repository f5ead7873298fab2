//! The command line's help in French: the commands' descriptions, their
//! options' and their examples' words are looked up in one table
//! (`FRENCH`), keyed by the English text clap holds; clap's own words
//! ("Usage:", "[default: …]", "Print help") are replaced in the rendered
//! help. The operators' and developers' tools (`ENGLISH_ONLY`) keep their
//! options' help in English (docs/TUI.md, "Languages"); their one-line
//! descriptions in `oware --help` are French like every other.

use clap::Command;
use oware_session::Lang;

/// Subcommands whose options stay in English: tools for whoever runs a
/// server, trains the engine or measures it (docs/TUI.md, "Languages").
pub const ENGLISH_ONLY: &[&str] = &[
    "bench",
    "elo",
    "coach-rate",
    "tune",
    "serve",
    "serve-bench",
    "admin",
    "book build",
    "puzzle build",
    "puzzle check",
    "puzzle reline",
    "puzzle recheck",
    "tablebase bench",
];

/// Whether the command at `path` ("tune gen") is one of `ENGLISH_ONLY`
/// or inside one.
pub fn english_only(path: &str) -> bool {
    ENGLISH_ONLY
        .iter()
        .any(|e| path == *e || path.starts_with(&format!("{e} ")))
}

/// The command tree with its help in `lang`.
pub fn localized(cmd: Command, lang: Lang) -> Command {
    match lang {
        Lang::En => cmd,
        Lang::Fr => french(cmd, ""),
    }
}

/// `text`'s first paragraph on one line, without its final period: the
/// form clap shows as a short help.
fn key(text: &str) -> String {
    let first = text.split("\n\n").next().unwrap_or_default();
    let one_line = first.split_whitespace().collect::<Vec<_>>().join(" ");
    one_line.trim_end_matches('.').to_string()
}

/// The French of an English help text, if the table has it.
pub fn french_of(text: &str) -> Option<&'static str> {
    let k = key(text);
    FRENCH.iter().find(|(en, _)| *en == k).map(|(_, fr)| *fr)
}

fn french(mut cmd: Command, path: &str) -> Command {
    let english = english_only(path);
    if let Some(about) = cmd.get_about().map(|a| a.to_string()) {
        if let Some(fr) = french_of(&about) {
            cmd = cmd.about(fr).long_about(None);
        }
    }
    if !english {
        if let Some(after) = cmd.get_after_help().map(|a| a.to_string()) {
            cmd = cmd.after_help(examples(&after)).after_long_help(None);
        }
        let ids: Vec<clap::Id> = cmd.get_arguments().map(|a| a.get_id().clone()).collect();
        for id in ids {
            cmd = cmd.mut_arg(id, |mut arg| {
                if let Some(fr) = arg
                    .get_help()
                    .map(|h| h.to_string())
                    .as_deref()
                    .and_then(french_of)
                {
                    arg = arg.help(fr).long_help(None);
                }
                // Renamed only when every name has its French.
                let names: Option<Vec<&'static str>> = arg.get_value_names().and_then(|names| {
                    names
                        .iter()
                        .map(|n| {
                            VALUE_NAMES
                                .iter()
                                .find(|(en, _)| *en == n.as_str())
                                .map(|(_, fr)| *fr)
                        })
                        .collect()
                });
                match names {
                    Some(names) => arg.value_names(names),
                    None => arg,
                }
            });
        }
    }
    cmd = cmd
        .subcommand_help_heading("Commandes")
        .subcommand_value_name("COMMANDE");
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        let sub_path = if path.is_empty() {
            name.clone()
        } else {
            format!("{path} {name}")
        };
        cmd = cmd.mut_subcommand(&name, |s| french(s, &sub_path));
    }
    cmd
}

/// An "Examples:" block in French: the heading, and each example's
/// description (after two spaces or more) from the table; the command
/// lines themselves are kept.
fn examples(text: &str) -> String {
    text.lines()
        .map(|line| {
            if line == "Examples:" {
                return "Exemples\u{a0}:".to_string();
            }
            let trimmed = line.trim_end();
            match trimmed.rfind("  ") {
                Some(at) if line.starts_with("  ") && at > 2 => {
                    let (cmd, desc) = trimmed.split_at(at);
                    let desc = desc.trim();
                    let cmd = french_levels(cmd);
                    match french_of(desc) {
                        Some(fr) => format!("{cmd}  {fr}"),
                        None => format!("{cmd}{}", &trimmed[at..]),
                    }
                }
                _ => french_of(line)
                    .map(str::to_string)
                    .unwrap_or_else(|| french_levels(line)),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// An example command line with its levels' names in French
/// (`--level beginner` → `--level débutant`) and `--first`'s values;
/// both languages' words are accepted (`Level::parse`, `Who`'s aliases).
fn french_levels(line: &str) -> String {
    let mut out = line.to_string();
    for level in oware_engine::Level::all() {
        for before in ["--level ", "--against ", "Level value "] {
            let en = format!("{before}{}", level.name());
            let at_word_end = |rest: &str| !rest.starts_with(|c: char| c.is_alphabetic());
            if let Some(at) = out.find(&en) {
                if at_word_end(&out[at + en.len()..]) {
                    out.replace_range(at..at + en.len(), &format!("{before}{}", level.name_fr()));
                }
            }
        }
    }
    // `--first`'s French values (`Who`'s aliases).
    for (en, fr) in [
        ("--first computer", "--first ordinateur"),
        ("--first me", "--first moi"),
        ("--first lot", "--first sort"),
    ] {
        out = out.replace(en, fr);
    }
    out
}

/// Clap's own words in a rendered help or usage, in French.
pub fn clap_words(text: &str) -> String {
    let mut out = text.to_string();
    for (en, fr) in CLAP_WORDS {
        out = out.replace(en, fr);
    }
    // The descriptions of possible values (" - me: You start").
    out.lines()
        .map(|line| {
            let t = line.trim_start();
            match t.strip_prefix("- ").and_then(|r| r.split_once(": ")) {
                Some((value, desc)) => match french_of(desc) {
                    Some(fr) => format!("{}- {value}\u{a0}: {fr}", &line[..line.len() - t.len()]),
                    None => line.to_string(),
                },
                None => line.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        .trim_end()
        .to_string()
        + "\n"
}

/// Clap's words and the options' value names, English → French.
const CLAP_WORDS: &[(&str, &str)] = &[
    ("Usage:", "Utilisation\u{a0}:"),
    ("Options:", "Options\u{a0}:"),
    ("Arguments:", "Arguments\u{a0}:"),
    ("Commandes:", "Commandes\u{a0}:"),
    ("Possible values:", "Valeurs possibles\u{a0}:"),
    ("[default: ", "[par défaut\u{a0}: "),
    ("[possible values: ", "[valeurs possibles\u{a0}: "),
    ("[aliases: ", "[autres noms\u{a0}: "),
    (
        "Print help (see a summary with '-h')",
        "Afficher l'aide (en bref avec «\u{a0}-h\u{a0}»)",
    ),
    (
        "Print help (see more with '--help')",
        "Afficher l'aide (en détail avec «\u{a0}--help\u{a0}»)",
    ),
    (
        "Print this message or the help of the given subcommand(s)",
        "Afficher ce message ou l'aide de la commande donnée",
    ),
    ("Print help", "Afficher l'aide"),
    ("Print version", "Afficher la version"),
];

/// The options' value names, English → French.
const VALUE_NAMES: &[(&str, &str)] = &[
    ("FILE.ogn", "FICHIER.ogn"),
    ("FILE", "FICHIER"),
    ("DIR", "DOSSIER"),
    ("LEVEL", "NIVEAU"),
    ("FIRST", "PREMIER"),
    ("LANG", "LANGUE"),
    ("MOVES", "COUPS"),
    ("DEPTH", "PROFONDEUR"),
    ("MOVETIME", "MS"),
    ("MOVETIME2", "MS"),
    ("HASH", "Mio"),
    ("TABLEBASES", "DOSSIER"),
    ("ENGINE1", "MOTEUR1"),
    ("ENGINE2", "MOTEUR2"),
    ("NAME=VALUE", "NOM=VALEUR"),
    ("GAMES", "PARTIES"),
    ("NODES", "NŒUDS"),
    ("OPENINGS", "FICHIER"),
    ("RANDOM_PLIES", "DEMI-COUPS"),
    ("SEED", "GERME"),
    ("CONCURRENCY", "N"),
    ("MAX_SEEDS", "GRAINES"),
    ("SAMPLE", "N"),
    ("BOOK", "FICHIER"),
    ("LESSON", "LEÇON"),
    ("MB", "Mo"),
    ("PROBES", "N"),
];

/// English help text (first paragraph, no final period) → French.
const FRENCH: &[(&str, &str)] = &[
    // oware
    ("Oware Abapa: play, study and analyse", "Oware Abapa (awalé)\u{a0}: jouer, apprendre, analyser"),
    ("the terminal game (--lang fr for French)", "le jeu dans le terminal (--lang en pour l'anglais)"),
    ("the rules, one lesson at a time", "les règles, une leçon à la fois"),
    ("puzzles in the terminal", "les problèmes dans le terminal"),
    ("the web app on http://127.0.0.1:8080", "l'application web sur http://127.0.0.1:8080"),
    ("every move of a position, valued", "chaque coup d'une position, évalué"),
    (
        "Each command has its own examples: oware play --help, oware serve --help, …",
        "Chaque commande a ses exemples\u{a0}: oware play --help, oware serve --help…",
    ),
    // The commands' one-line descriptions.
    (
        "Count legal move sequences of a given length (the move generator's test and benchmark)",
        "Compter les suites de coups légaux d'une longueur donnée (test et mesure du générateur de coups)",
    ),
    ("Perft split by first move", "Perft détaillé par premier coup"),
    (
        "Show a position, optionally after a list of moves played with the full rules",
        "Afficher une position, éventuellement après une suite de coups joués selon toutes les règles",
    ),
    (
        "Check an OGN game record and print its final position and result",
        "Vérifier une partie enregistrée (OGN) et afficher sa position finale et son résultat",
    ),
    (
        "Value and principal variation of every legal move of a position",
        "La valeur et la suite prévue de chaque coup possible d'une position",
    ),
    (
        "Search fixed positions to a fixed depth: prints the node-count signature and nodes/second",
        "Mesure du moteur (outil de développement, en anglais)\u{a0}: positions fixes à profondeur fixe",
    ),
    (
        "Speak the UCI engine protocol (Aalina's dialect) on stdin/stdout",
        "Parler le protocole des moteurs UCI (dialecte d'Aalina) sur l'entrée et la sortie standard",
    ),
    (
        "Play a match between two UCI engines, judged by the rules core",
        "Faire jouer un match entre deux moteurs UCI, arbitré par le noyau des règles",
    ),
    (
        "Elo difference, 95 % interval and LOS of match counts, summed over one or more runs (e.g. to total several `oware match` runs)",
        "Écart Elo de plusieurs matchs additionnés (outil de développement, en anglais)",
    ),
    (
        "How often the coach warns in games between two levels, and how a level that follows a coach scores (docs/ENGINE.md, \"The coach\")",
        "Mesure des avertissements du coach (outil de développement, en anglais)",
    ),
    (
        "Fit the evaluation weights on self-play data (see docs/ENGINE.md)",
        "Réglage de l'évaluation du moteur (outil de développement, en anglais)",
    ),
    (
        "Endgame tablebases: build the files, probe a position, verify files",
        "Tables de finales\u{a0}: les construire, y lire une position, vérifier leurs fichiers",
    ),
    (
        "The opening book: build it by our own search, or look a position up",
        "Le livre d'ouvertures\u{a0}: y lire une position, ou le construire",
    ),
    (
        "Play Oware in the terminal, against the computer or another person",
        "Jouer à l'awalé dans le terminal, contre l'ordinateur ou une autre personne",
    ),
    (
        "Start the web app: play, learn and study in the browser",
        "Lancer l'application web (outil d'administration, options en anglais)",
    ),
    (
        "Load generator: play many simultaneous online games against a server over WebSocket",
        "Test de charge d'un serveur (outil d'administration, en anglais)",
    ),
    (
        "Puzzles: find the one move that wins or saves clearly more (in the terminal); build or check the set (docs/PUZZLES.md)",
        "Problèmes\u{a0}: trouver le coup qui gagne ou sauve nettement plus (dans le terminal)",
    ),
    (
        "Learn the rules: thirteen lessons, one per rule, each with a board that answers every move (in the terminal)",
        "Apprendre les règles\u{a0}: treize leçons, une par règle, chacune avec un plateau qui répond à chaque coup (dans le terminal)",
    ),
    (
        "The operator's tools: review players' reports, close them, close accounts",
        "Outils d'administration du serveur (en anglais)",
    ),
    // Sub-subcommands.
    (
        "Build the tables for every board with at most N seeds (resumable: seed counts whose file is already there and valid are kept)",
        "Construire les tables de toutes les positions d'au plus N graines (reprise possible\u{a0}: les fichiers déjà là et valides sont gardés)",
    ),
    (
        "Print the table's value of a position, its result and the best moves",
        "Afficher la valeur d'une position selon les tables, son résultat et les meilleurs coups",
    ),
    (
        "Check every file in a directory (header, size, checksum) and, on a sample of positions, that each value agrees with its moves' values",
        "Vérifier chaque fichier d'un dossier (en-tête, taille, somme de contrôle) et, sur un échantillon de positions, que chaque valeur s'accorde avec celles de ses coups",
    ),
    (
        "Measure probe speed: random positions of the largest seed count (deterministic sequence), probed from the files",
        "Mesurer la vitesse de lecture des tables (outil de développement, en anglais)",
    ),
    (
        "Build a book: every position of the first plies reached by any move (then by plausible moves), each valued by a fixed-depth search of all its moves, values backed up through the book",
        "Construire le livre d'ouvertures (outil de développement, en anglais)",
    ),
    (
        "Print the book's moves of a position (the shipped book by default)",
        "Afficher les coups du livre pour une position (le livre fourni par défaut)",
    ),
    (
        "Find puzzles in games between the engine's levels (seeded: the same arguments write the same file)",
        "Chercher des problèmes dans des parties entre niveaux (outil de développement, en anglais)",
    ),
    (
        "Re-verify every puzzle of a file at its check depth",
        "Revérifier chaque problème d'un fichier (outil de développement, en anglais)",
    ),
    (
        "Re-check every puzzle's claim: against the endgame tables where they cover its position (in seeds of the game), beyond them by a search with the tables, whose values must be decided or lead at two depths (docs/PUZZLES.md, \"Independent re-check\")",
        "Revérifier ce que dit chaque problème, par les tables de finales en graines de la partie et au-delà par une recherche avec les tables (outil de développement, en anglais)",
    ),
    (
        "Re-make a file's table-proved lines as the tables' play after the solution and every puzzle's themes from its line, and drop the search-proved puzzles this build's engine no longer proves (docs/PUZZLES.md)",
        "Refaire les suites des problèmes prouvés par les tables et leurs thèmes, et retirer ceux que le moteur ne prouve plus (outil de développement, en anglais)",
    ),
    (
        "Review players' reports (open ones by default)",
        "Lire les signalements des joueurs (en anglais)",
    ),
    // Options shared by several commands.
    (
        "Start position (position string); the standard start by default",
        "Position de départ (chaîne de position)\u{a0}; par défaut le début de partie",
    ),
    (
        "Moves to play from the position, concatenated (FfBe) or spaced (\"F f B e\")",
        "Coups à jouer depuis la position, collés (FfBe) ou espacés («\u{a0}F f B e\u{a0}»)",
    ),
    (
        "Moves to play from the position first, concatenated (FfBe) or spaced (\"F f B e\")",
        "Coups à jouer d'abord depuis la position, collés (FfBe) ou espacés («\u{a0}F f B e\u{a0}»)",
    ),
    ("Number of plies", "Nombre de demi-coups"),
    ("Print a JSON object instead of a diagram", "Écrire un objet JSON au lieu d'un diagramme"),
    ("The OGN file to check", "Le fichier OGN à vérifier"),
    (
        "Print a JSON object (as `oware show --json`) instead of a diagram",
        "Écrire un objet JSON (comme `oware show --json`) au lieu d'un diagramme",
    ),
    (
        "Think for this many milliseconds, 1 to 3600000 (the default is 1000)",
        "Réfléchir ce nombre de millisecondes, de 1 à 3600000 (1000 par défaut)",
    ),
    (
        "Search to this depth in plies instead of a time, 1 to 64",
        "Chercher jusqu'à cette profondeur en demi-coups au lieu d'un temps, de 1 à 64",
    ),
    (
        "The coach's analysis instead (its budget: every move to depth 14, then the moves it cannot tell apart deeper, to 18 or 20 by the seeds on the board), as the server's coach, the hint and the browser's module give it (docs/ENGINE.md, \"The coach\")",
        "Ce que dit le coach à la place (chaque coup à la profondeur 14, puis ceux qu'il ne peut départager plus loin, à 18 ou 20 selon les graines sur le plateau), comme le coach du serveur, l'indice et le module du navigateur",
    ),
    ("Transposition table size in MiB", "Taille de la table de transposition en Mio"),
    (
        "Transposition table size in MiB (also `setoption name Hash`)",
        "Taille de la table de transposition en Mio (aussi `setoption name Hash`)",
    ),
    (
        "Endgame tablebase directory (also `setoption name TablebaseDir`). By default `./tablebases` if it exists, else a small table built in memory",
        "Dossier des tables de finales (aussi `setoption name TablebaseDir`)\u{a0}; par défaut `./tablebases` s'il existe, sinon une petite table construite en mémoire",
    ),
    ("Use no endgame tables at all", "N'utiliser aucune table de finales"),
    (
        "Evaluate with the linear evaluation instead of the neural network (docs/ENGINE.md, \"The network\")",
        "Évaluer avec l'évaluation linéaire au lieu du réseau de neurones (docs/ENGINE.md)",
    ),
    ("Print JSON instead of a table", "Écrire du JSON au lieu d'un tableau"),
    // match
    (
        "First engine's command line (`oware` means this program), e.g. \"oware uci\"",
        "La commande du premier moteur (`oware` désigne ce programme), par exemple «\u{a0}oware uci\u{a0}»",
    ),
    ("Second engine's command line", "La commande du second moteur"),
    (
        "Option for engine 1 as NAME=VALUE (repeatable), e.g. Level=3",
        "Une option du moteur 1, NOM=VALEUR (répétable), par exemple Level=3",
    ),
    (
        "Option for engine 2 as NAME=VALUE (repeatable), e.g. Greedy=true",
        "Une option du moteur 2, NOM=VALEUR (répétable), par exemple Greedy=true",
    ),
    (
        "Number of games (each opening is played twice, colours swapped); with --sprt, the most games to play (default 10, with --sprt 20000)",
        "Nombre de parties (chaque ouverture est jouée deux fois, camps échangés)\u{a0}; avec --sprt, le maximum (10 par défaut, 20000 avec --sprt)",
    ),
    (
        "Run a sequential probability ratio test (GSPRT, on game pairs) of Elo = --elo0 against Elo = --elo1, stopping as soon as one is accepted",
        "Faire un test séquentiel du rapport de vraisemblance (GSPRT, par paires de parties) de Elo = --elo0 contre Elo = --elo1, arrêté dès que l'un est accepté",
    ),
    (
        "SPRT: the Elo of the null hypothesis (engine 1 minus engine 2)",
        "SPRT\u{a0}: l'Elo de l'hypothèse nulle (moteur 1 moins moteur 2)",
    ),
    (
        "SPRT: the Elo of the alternative hypothesis (above --elo0)",
        "SPRT\u{a0}: l'Elo de l'hypothèse alternative (au-dessus de --elo0)",
    ),
    (
        "SPRT: the probability of accepting --elo1 when --elo0 holds",
        "SPRT\u{a0}: la probabilité d'accepter --elo1 quand --elo0 est vraie",
    ),
    (
        "SPRT: the probability of accepting --elo0 when --elo1 holds",
        "SPRT\u{a0}: la probabilité d'accepter --elo0 quand --elo1 est vraie",
    ),
    ("Time per move in milliseconds", "Temps par coup en millisecondes"),
    ("Depth per move in plies", "Profondeur par coup en demi-coups"),
    (
        "Nodes per move (fair comparisons on a loaded machine)",
        "Nœuds par coup (comparaisons justes sur une machine chargée)",
    ),
    (
        "Engine 2's time per move, for time-odds matches (default: --movetime)",
        "Temps par coup du moteur 2, pour un handicap de temps (par défaut\u{a0}: --movetime)",
    ),
    (
        "Openings file: one opening a line, a move list from the start or a position string followed by optional moves; '#' starts a comment",
        "Fichier d'ouvertures\u{a0}: une par ligne, des coups depuis le début ou une chaîne de position suivie de coups\u{a0}; «\u{a0}#\u{a0}» commence un commentaire",
    ),
    (
        "Random openings of this many plies (the default, with 4 plies)",
        "Ouvertures au hasard de ce nombre de demi-coups (par défaut, avec 4)",
    ),
    ("Seed of the random openings", "Germe des ouvertures au hasard"),
    ("Games played at once", "Parties jouées en même temps"),
    ("Print every game's moves", "Écrire les coups de chaque partie"),
    // tablebase
    ("Largest number of seeds on the board", "Le plus grand nombre de graines sur le plateau"),
    ("Directory of the table files", "Dossier des fichiers de tables"),
    (
        "Memory for a seed count's working arrays (5 bytes a board; per rank under mpirun), in MB (10^6 bytes): above it they are kept in memory-mapped files in --dir instead of RAM, and the finished counts are mapped from their files rather than copied into RAM. Slower where the page cache cannot hold them (docs/SOLVING.md)",
        "Mémoire des tableaux de travail d'un nombre de graines (5 octets par position\u{a0}; par rang sous mpirun), en Mo\u{a0}: au-delà, ils sont gardés dans des fichiers projetés en mémoire dans --dir (plus lent, docs/SOLVING.md)",
    ),
    (
        "The position (position string, e.g. 1-0-0-0-1-0-0-0-0-0-0-0-23-23-S)",
        "La position (chaîne de position, par exemple 1-0-0-0-1-0-0-0-0-0-0-0-23-23-S)",
    ),
    (
        "Directory of the table files. Without it, `./tablebases` if it holds table files (as for `analyze` and `uci`), else a table of `--max-seeds` seeds built in memory",
        "Dossier des fichiers de tables\u{a0}; sans lui, `./tablebases` s'il en contient (comme pour `analyze` et `uci`), sinon une table de `--max-seeds` graines construite en mémoire",
    ),
    (
        "Seeds of the in-memory table when no table files are used",
        "Graines de la table construite en mémoire quand aucun fichier n'est utilisé",
    ),
    ("Positions to check per seed count", "Positions à vérifier par nombre de graines"),
    // book probe
    ("A book file instead of the shipped book", "Un fichier de livre au lieu du livre fourni"),
    (
        "Moves from the start, concatenated (FfBe) or spaced",
        "Coups depuis le début, collés (FfBe) ou espacés",
    ),
    // play
    (
        "Two people at one keyboard instead of the computer",
        "Deux personnes au même clavier au lieu de l'ordinateur",
    ),
    (
        "The computer's level: 1 to 10, or its name: beginner, novice, learner, casual, club, intermediate, advanced, strong, expert, master (French names too: débutant … maître)",
        "Le niveau de l'ordinateur\u{a0}: de 1 à 10, ou son nom\u{a0}: débutant, novice, apprenti, amateur, club, intermédiaire, avancé, fort, expert, maître (les noms anglais aussi)",
    ),
    (
        "Who moves first against the computer (French too: moi, ordinateur, sort)",
        "Qui joue en premier contre l'ordinateur\u{a0}: moi, ordinateur, sort (ou me, computer, lot)",
    ),
    ("You start", "Vous commencez"),
    ("The computer starts", "L'ordinateur commence"),
    ("Drawn by lot", "Tiré au sort"),
    ("Resume the game in this OGN file", "Reprendre la partie de ce fichier OGN"),
    (
        "Line-by-line mode (also used when stdin or stdout is not a terminal)",
        "Mode ligne par ligne (aussi quand l'entrée ou la sortie n'est pas un terminal)",
    ),
    (
        "Show moves at once instead of sowing seed by seed",
        "Montrer les coups aussitôt au lieu de semer graine par graine",
    ),
    (
        "Do not mark where the last seed lands and what it captures",
        "Ne pas marquer où tombe la dernière graine ni ce qu'elle prend",
    ),
    (
        "Do not warn when a move lets the opponent capture next turn",
        "Ne pas avertir quand un coup laisse l'adversaire prendre au tour suivant",
    ),
    (
        "Language of every screen and message (default: from LC_ALL, LC_MESSAGES or LANG); `g` on the rules screen switches it",
        "Langue de tous les écrans et messages (par défaut\u{a0}: selon LC_ALL, LC_MESSAGES ou LANG)\u{a0}; `g` sur l'écran des règles la change",
    ),
    (
        "Where the unfinished game is saved on quit (default: $OWARE_DATA_DIR, else the user's data directory)",
        "Où la partie en cours est gardée en quittant (par défaut\u{a0}: $OWARE_DATA_DIR, sinon le dossier de données de l'utilisateur)",
    ),
    (
        "Neither save an unfinished game on quit nor offer one",
        "Ne pas garder la partie en cours en quittant, ni en proposer une",
    ),
    (
        "Milliseconds the engine thinks about a hint",
        "Millisecondes de réflexion de l'ordinateur pour un conseil",
    ),
    (
        "Endgame tables to open (default: `./tablebases` if it holds table files, else tables of up to 14 seeds built in memory in the background while you play)",
        "Tables de finales à ouvrir (par défaut\u{a0}: `./tablebases` s'il en contient, sinon des tables jusqu'à 14 graines construites en mémoire pendant que vous jouez)",
    ),
    ("Play without endgame tables", "Jouer sans tables de finales"),
    (
        "The computer plays without its opening book",
        "L'ordinateur joue sans son livre d'ouvertures",
    ),
    (
        "The computer evaluates with the linear evaluation instead of the neural network (docs/ENGINE.md, \"The network\")",
        "L'ordinateur évalue avec l'évaluation linéaire au lieu du réseau de neurones (docs/ENGINE.md)",
    ),
    ("the new-game screen (choose the level there)", "l'écran de nouvelle partie (le niveau s'y choisit)"),
    ("against the weakest level", "contre le niveau le plus faible"),
    ("two people at one keyboard, in French", "deux personnes au même clavier, en français"),
    ("resume a saved game", "reprendre une partie enregistrée"),
    ("line by line (scripts, screen readers)", "ligne par ligne (scripts, lecteurs d'écran)"),
    // puzzle, learn
    (
        "The language: en or fr (default: from the locale)",
        "La langue\u{a0}: en ou fr (par défaut\u{a0}: celle du système)",
    ),
    ("Start with this puzzle", "Commencer par ce problème"),
    (
        "Open this lesson (R1 to R13) instead of the contents",
        "Ouvrir cette leçon (R1 à R13) au lieu du sommaire",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// Every help text of the French command tree, with where it is.
    fn texts(cmd: &Command, path: &str, out: &mut Vec<(String, String)>) {
        let english = english_only(path);
        if let Some(a) = cmd.get_about() {
            let parent = path.rsplit_once(' ').map_or("", |(p, _)| p);
            if !english_only(parent) {
                out.push((format!("{path} (about)"), a.to_string()));
            }
        }
        if !english {
            for arg in cmd.get_arguments() {
                if let Some(h) = arg.get_help() {
                    out.push((format!("{path} --{}", arg.get_id()), h.to_string()));
                }
            }
        }
        for s in cmd.get_subcommands() {
            let p = format!("{path} {}", s.get_name()).trim().to_string();
            texts(s, &p, out);
        }
    }

    #[test]
    fn every_help_text_has_its_french() {
        let english = crate::Cli::command();
        let mut all = Vec::new();
        texts(&english, "", &mut all);
        let missing: Vec<String> = all
            .iter()
            .filter(|(_, t)| french_of(t).is_none())
            .map(|(w, t)| format!("{w}: {:?}", key(t)))
            .collect();
        assert!(missing.is_empty(), "no French for:\n{}", missing.join("\n"));
    }

    #[test]
    fn the_french_tree_is_valid_and_french() {
        let fr = localized(crate::Cli::command(), Lang::Fr);
        fr.clone().debug_assert();
        let mut all = Vec::new();
        texts(&fr, "", &mut all);
        for (w, t) in all {
            assert!(
                FRENCH.iter().any(|(_, f)| *f == t),
                "{w} is not French: {t}"
            );
        }
    }
}
