// Lesson texts for the tutorial and the rules page, in English and French.
// Written for this project from the rules in docs/RULES.md; positions
// come from its worked examples (E1–E12) or were set up for a lesson.

export const START = '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S';

/** One lesson per rule: text, a position to play on, a suggested move. */
export const LESSONS = [
  {
    id: 'r1', rule: 'R1',
    title: { en: 'The board and the seeds', fr: 'Le plateau et les graines' },
    body: {
      en: [
        'Oware is played on two rows of six houses. The row nearer to you is yours; the far row belongs to your opponent. Each player also has a store, used only to keep the seeds they capture.',
        'The game starts with four seeds in every house: 48 seeds in all, stores empty. Seeds have no owner until someone captures them, and the seeds on the board plus the seeds in the stores always add up to 48.',
      ],
      fr: [
        'L’awalé se joue sur deux rangées de six cases. La rangée la plus proche de vous est la vôtre ; celle d’en face appartient à votre adversaire. Chacun a aussi une réserve, qui sert uniquement à garder les graines capturées.',
        'Au départ, chaque case contient quatre graines : 48 graines en tout, réserves vides. Une graine n’appartient à personne tant qu’elle n’est pas capturée, et graines du plateau plus graines des réserves font toujours 48.',
      ],
    },
    position: START,
    task: { en: 'Count the seeds, then sow any of your houses (the bottom row).', fr: 'Comptez les graines, puis semez l’une de vos cases (rangée du bas).' },
  },
  {
    id: 'r2', rule: 'R2',
    title: { en: 'Who starts, and taking turns', fr: 'Qui commence, et chacun son tour' },
    body: {
      en: [
        'Draw lots to decide who plays first, or agree on it (some give the first move to the less experienced player). After that the players simply alternate.',
        'A capture never earns a second move: whatever happens, the turn passes to the other player.',
      ],
      fr: [
        'On tire au sort le premier joueur, ou l’on se met d’accord (certains laissent commencer le moins expérimenté). Ensuite, les joueurs jouent chacun à leur tour.',
        'Une prise ne donne jamais de coup supplémentaire : quoi qu’il arrive, la main passe à l’autre joueur.',
      ],
    },
    position: START,
    task: { en: 'Play one move for South, then one for North (the top row): the board hands the turn over each time.', fr: 'Jouez un coup pour Sud, puis un pour Nord (rangée du haut) : le plateau passe la main à chaque fois.' },
  },
  {
    id: 'r3', rule: 'R3',
    title: { en: 'Sowing', fr: 'Semer' },
    body: {
      en: [
        'On your turn, pick one of your own houses that is not empty. Lift all its seeds and drop them one at a time into the houses that follow, counter-clockwise: rightwards along your row, then leftwards along your opponent’s.',
        'The stores are never part of the path. You may not start from an opponent’s house, and once the seeds are in your hand you must sow them all.',
      ],
      fr: [
        'À votre tour, choisissez une de vos cases non vides. Prenez toutes ses graines et déposez-les une à une dans les cases suivantes, dans le sens inverse des aiguilles d’une montre : vers la droite sur votre rangée, puis vers la gauche chez l’adversaire.',
        'Les réserves ne font jamais partie du trajet. Il est interdit de partir d’une case adverse, et une fois les graines en main, il faut toutes les semer.',
      ],
    },
    position: START,
    show: 'F',
    task: { en: 'Sow F, your rightmost house: its four seeds go into North’s a, b, c and d.', fr: 'Semez F, votre case la plus à droite : ses quatre graines vont dans a, b, c et d chez Nord.' },
  },
  {
    id: 'r4', rule: 'R4',
    title: { en: 'Going all the way round', fr: 'Faire le tour complet' },
    body: {
      en: [
        'A house with twelve seeds or more sends the sowing round the whole board. When the path comes back to the house you emptied, jump over it: it stays empty for the rest of that move, however many laps there are.',
      ],
      fr: [
        'Une case de douze graines ou plus fait faire au semis le tour complet du plateau. Quand le trajet revient à la case de départ, on la saute : elle reste vide jusqu’à la fin du coup, quel que soit le nombre de tours.',
      ],
    },
    position: '12-0-0-0-0-0-1-1-1-1-1-1-15-15-S',
    show: 'A',
    task: { en: 'Sow the twelve seeds of A and watch the sowing skip A on its way round.', fr: 'Semez les douze graines de A et regardez le semis sauter A au passage.' },
  },
  {
    id: 'r5', rule: 'R5',
    title: { en: 'Capturing twos and threes', fr: 'Prendre les deux et les trois' },
    body: {
      en: [
        'Look at the house where your last seed fell. If it is on your opponent’s side and now holds exactly two or three seeds, you capture them all.',
        'Then look at the house just before it (going back along the path). If it is still on your opponent’s side and holds two or three, take those as well, and keep going back. Stop at the first house with any other count, or at the edge of your opponent’s row: a chain never jumps a house.',
      ],
      fr: [
        'Regardez la case où est tombée votre dernière graine. Si elle est chez l’adversaire et contient maintenant exactement deux ou trois graines, vous les capturez toutes.',
        'Regardez ensuite la case juste avant (en remontant le trajet). Si elle est encore chez l’adversaire et contient deux ou trois graines, prenez-les aussi, et continuez à reculer. Arrêtez-vous à la première case qui a un autre nombre, ou au bout de la rangée adverse : une chaîne ne saute jamais de case.',
      ],
    },
    position: '0-0-0-5-0-0-3-1-2-0-0-3-17-17-S',
    show: 'D',
    task: { en: 'Play D. The last seed makes three in c, the house before it holds two, and the chain stops at the four in a.', fr: 'Jouez D. La dernière graine fait trois en c, la case d’avant en a deux, et la chaîne s’arrête devant les quatre de a.' },
  },
  {
    id: 'r6', rule: 'R6',
    title: { en: 'Only the last seed counts', fr: 'Seule la dernière graine compte' },
    body: {
      en: [
        'Houses that reach two or three while the seeds go past are not captured for that reason alone. Only the house of the last seed can start a capture, and a last seed in your own row captures nothing at all.',
      ],
      fr: [
        'Une case qui passe à deux ou trois pendant le trajet n’est pas prise pour autant. Seule la case de la dernière graine peut déclencher une prise, et une dernière graine tombée dans votre propre rangée ne prend rien.',
      ],
    },
    position: '0-0-0-4-0-0-1-3-2-2-2-2-16-16-S',
    show: 'D',
    task: { en: 'Play D: house a goes from one to two on the way, but the last seed lands in b, which ends with four. Nothing is taken.', fr: 'Jouez D : la case a passe de une à deux au passage, mais la dernière graine tombe en b, qui finit à quatre. Rien n’est pris.' },
  },
  {
    id: 'r7', rule: 'R7',
    title: { en: 'The grand slam is cancelled', fr: 'La prise totale est annulée' },
    body: {
      en: [
        'If a capture would take every seed your opponent has left in their row, it does not happen at all: you take nothing, not even part of it. The sowing itself stays on the board and the turn passes as usual.',
      ],
      fr: [
        'Si une prise devait emporter toutes les graines qui restent dans la rangée adverse, elle n’a pas lieu du tout : vous ne prenez rien, pas même une partie. Le semis, lui, reste en place et la main passe normalement.',
      ],
    },
    position: '1-0-0-0-0-2-1-1-0-0-0-0-21-22-S',
    show: 'F',
    task: { en: 'Play F: a and b both reach two, but they are all North has. The capture is cancelled; North then plays a or b.', fr: 'Jouez F : a et b passent toutes deux à deux, mais c’est tout ce que Nord possède. La prise est annulée ; Nord joue ensuite a ou b.' },
  },
  {
    id: 'r8', rule: 'R8',
    title: { en: 'Feeding an empty row', fr: 'Nourrir un camp vide' },
    body: {
      en: [
        'If your opponent’s row is empty when your turn begins, you must choose a move that puts at least one seed into it, as long as such a move exists. Moves that leave them with nothing are refused.',
      ],
      fr: [
        'Si la rangée de votre adversaire est vide au début de votre tour, vous devez choisir un coup qui y dépose au moins une graine, si un tel coup existe. Les coups qui le laissent sans rien sont refusés.',
      ],
    },
    position: '3-0-0-0-0-1-0-0-0-0-0-0-22-22-S',
    show: 'F',
    task: { en: 'North has nothing. Try A first: its three seeds stop short of North, so the move is refused. F feeds North.', fr: 'Nord n’a plus rien. Essayez d’abord A : ses trois graines n’atteignent pas Nord, le coup est refusé. F nourrit Nord.' },
  },
  {
    id: 'r9', rule: 'R9',
    title: { en: 'When nobody can feed', fr: 'Quand on ne peut plus nourrir' },
    body: {
      en: [
        'If your opponent’s row is empty and none of your moves can reach it, the game is over: you add every seed still in your row to your store. More generally, whenever the player to move has no legal move, the game ends and each player takes the seeds on their own side.',
      ],
      fr: [
        'Si la rangée adverse est vide et qu’aucun de vos coups ne peut l’atteindre, la partie est finie : vous ajoutez à votre réserve toutes les graines de votre rangée. Plus généralement, dès que le joueur au trait n’a aucun coup permis, la partie s’arrête et chacun prend les graines de son côté.',
      ],
    },
    position: '1-0-0-0-1-0-0-0-0-0-0-0-23-23-S',
    task: { en: 'Here neither of South’s seeds can reach North: the game has already ended, and South’s two seeds make it 25 to 23.', fr: 'Ici, aucune des graines de Sud ne peut atteindre Nord : la partie est déjà finie, et les deux graines de Sud donnent 25 à 23.' },
  },
  {
    id: 'r10', rule: 'R10',
    title: { en: 'Winning', fr: 'Gagner' },
    body: {
      en: [
        'Twenty-five seeds is more than half of 48, so the first player to capture 25 has won and the game stops there. If the game ends some other way, the larger total wins, and 24 each is a draw.',
      ],
      fr: [
        'Vingt-cinq graines, c’est plus de la moitié de 48 : le premier qui en capture 25 a gagné et la partie s’arrête là. Si la partie se termine autrement, le plus gros total l’emporte, et 24 partout est une partie nulle.',
      ],
    },
    position: '1-2-0-1-0-0-0-0-0-0-0-2-21-21-N',
    show: 'f',
    task: { en: 'North to play. Sow f: the last seed makes three in B, B’s neighbour A has two, and North reaches 26.', fr: 'Nord joue. Semez f : la dernière graine fait trois en B, la voisine A en a deux, et Nord atteint 26.' },
  },
  {
    id: 'r11', rule: 'R11',
    title: { en: 'The same position three times', fr: 'Trois fois la même position' },
    body: {
      en: [
        'When the same position (the twelve houses and the player to move) comes back for the third time with no capture in between, the game ends and each player takes the seeds in their own row.',
        'This does not apply while one row is empty, because that player must be fed first.',
      ],
      fr: [
        'Quand la même position (les douze cases et le joueur au trait) revient pour la troisième fois sans aucune prise entre-temps, la partie s’arrête et chacun prend les graines de sa rangée.',
        'Cela ne s’applique pas tant qu’une rangée est vide, car ce joueur doit d’abord être nourri.',
      ],
    },
    position: '0-0-0-0-0-0-1-0-0-0-0-1-23-23-N',
    sequence: 'fAaBbCcDdEeFfAaBbCcDdEeFf',
    task: { en: 'Two lonely seeds chase each other round the board. Press “Show me” to play the loop until the third repetition ends the game at 24–24.', fr: 'Deux graines isolées se poursuivent autour du plateau. Appuyez sur « Montrez-moi » pour jouer la boucle jusqu’à la troisième répétition, qui termine la partie à 24–24.' },
  },
  {
    id: 'r12', rule: 'R12',
    title: { en: 'Stopping by agreement', fr: 'Arrêter d’un commun accord' },
    body: {
      en: [
        'When only a few seeds are left and they just go round in circles, the players may agree to stop. Each then adds the seeds on their own side to their store, and the totals decide.',
        'In online games, use “Offer to stop”: your opponent accepts or declines. The computer accepts when it sees nothing better than a draw.',
      ],
      fr: [
        'Quand il ne reste que quelques graines qui tournent en rond, les joueurs peuvent convenir d’arrêter. Chacun ajoute alors à sa réserve les graines de son côté, et les totaux décident.',
        'En ligne, utilisez « Proposer d’arrêter » : votre adversaire accepte ou refuse. L’ordinateur accepte quand il ne voit rien de mieux qu’une nulle.',
      ],
    },
    position: '0-0-0-0-0-1-1-0-0-0-0-0-23-23-S',
    task: { en: 'Play a few moves: nobody can ever capture here. Stopping now would leave 24–24.', fr: 'Jouez quelques coups : personne ne pourra jamais prendre ici. Arrêter maintenant donnerait 24–24.' },
  },
];

/** Worked examples: a story in steps, each step a position and a move to show. */
export const EXAMPLES = [
  {
    id: 'alice',
    title: { en: 'Alice and Bob', fr: 'Alice et Bob' },
    steps: [
      {
        position: START, show: 'F',
        text: { en: 'Alice sits at the bottom (South) and opens with her rightmost house, F. Her four seeds land in Bob’s first four houses, which now hold five each: five is not two or three, so nothing is taken, and it is Bob’s turn.',
          fr: 'Alice est assise en bas (Sud) et ouvre avec sa case la plus à droite, F. Ses quatre graines tombent dans les quatre premières cases de Bob, qui en contiennent maintenant cinq : cinq n’est ni deux ni trois, donc rien n’est pris, et c’est à Bob.' },
      },
      {
        position: '0-0-0-0-0-2-1-1-0-0-4-0-20-20-S', show: 'F',
        text: { en: 'Much later, forty seeds are already captured. Alice has two seeds in F; Bob has one in a, one in b and four in e. Sowing F turns a and b into twos: Alice takes b, then a, four seeds in all. The four in e stay, so this is not a grand slam.',
          fr: 'Bien plus tard, quarante graines sont déjà capturées. Alice a deux graines en F ; Bob en a une en a, une en b et quatre en e. Semer F fait passer a et b à deux : Alice prend b, puis a, quatre graines en tout. Les quatre de e restent : ce n’est pas une prise totale.' },
      },
      {
        position: '1-0-0-0-0-2-1-1-0-0-0-0-21-22-S', show: 'F',
        text: { en: 'Suppose instead that a and b were Bob’s only seeds. The same move would empty his row, so the capture is cancelled: the seeds stay where they fell and Bob answers with a or b.',
          fr: 'Supposons au contraire que a et b soient les seules graines de Bob. Le même coup viderait sa rangée : la prise est annulée, les graines restent où elles sont tombées et Bob répond avec a ou b.' },
      },
      {
        position: '0-0-0-0-0-2-1-1-0-0-0-0-22-22-S', show: 'F',
        text: { en: 'One more twist: if F held Alice’s last seeds, after the cancelled capture her row is empty and neither of Bob’s houses can reach it. Bob cannot feed her, so the game ends and Bob keeps his four seeds: 22 to 26.',
          fr: 'Dernière variante : si F contenait les dernières graines d’Alice, après la prise annulée sa rangée est vide et aucune case de Bob ne peut l’atteindre. Bob ne peut pas la nourrir, la partie s’arrête et Bob garde ses quatre graines : 22 à 26.' },
      },
    ],
  },
  {
    id: 'slam',
    title: { en: 'A grand slam after two laps', fr: 'Une prise totale après deux tours' },
    steps: [
      {
        position: '0-0-0-0-0-17-2-1-1-0-0-1-13-13-S', show: 'F',
        text: { en: 'Seventeen seeds in F go round twice. The last seed lands in f and the chain runs back through e, d, c and b: thirteen seeds, and South reaches 26. House a ends with four seeds and stays with North, so the capture stands.',
          fr: 'Les dix-sept graines de F font deux fois le tour. La dernière tombe en f et la chaîne remonte par e, d, c et b : treize graines, et Sud atteint 26. La case a, qui finit à quatre, reste à Nord : la prise est valable.' },
      },
      {
        position: '0-0-0-0-0-17-1-1-1-0-0-1-14-13-S', show: 'F',
        text: { en: 'Change one seed: now every house of North would end with two or three, so the capture would take the whole row. It is cancelled and North keeps all seventeen seeds.',
          fr: 'Changez une seule graine : cette fois chaque case de Nord finirait à deux ou trois, la prise viderait toute la rangée. Elle est annulée et Nord garde ses dix-sept graines.' },
      },
    ],
  },
  {
    id: 'feeding',
    title: { en: 'Feeding', fr: 'Nourrir' },
    steps: [
      {
        position: '3-0-0-0-0-1-0-0-0-0-0-0-22-22-S', show: 'F',
        text: { en: 'North’s row is empty. A would stop at D, so only F, which drops its seed into a, is allowed.',
          fr: 'La rangée de Nord est vide. A s’arrêterait en D : seul F, qui dépose sa graine en a, est permis.' },
      },
    ],
  },
  {
    id: 'end',
    title: { en: 'The end of the game', fr: 'La fin de la partie' },
    steps: [
      {
        position: '1-0-0-0-1-0-0-0-0-0-0-0-23-23-S',
        text: { en: 'North is empty and South’s seeds in A and E cannot reach it: the game is over. South adds its two seeds and wins 25 to 23.',
          fr: 'Nord est vide et les graines de Sud en A et E ne peuvent pas l’atteindre : la partie est finie. Sud ajoute ses deux graines et gagne 25 à 23.' },
      },
      {
        position: '1-2-0-1-0-0-0-0-0-0-0-2-21-21-N', show: 'f',
        text: { en: 'North’s f captures three and then two: 26 seeds, more than half, and the game stops on the spot.',
          fr: 'Le coup f de Nord prend trois puis deux graines : 26, plus de la moitié, et la partie s’arrête aussitôt.' },
      },
    ],
  },
];

export const MISTAKES = [
  {
    text: { en: 'Dropping seeds into the stores. Only the twelve houses are on the path; the stores just hold captures.', fr: 'Semer dans les réserves. Seules les douze cases font partie du trajet ; les réserves ne servent qu’à ranger les prises.' },
    position: START, show: 'F',
  },
  {
    text: { en: 'Capturing on your own side. A last seed that makes two or three in your own row takes nothing.', fr: 'Prendre dans son propre camp. Une dernière graine qui fait deux ou trois chez vous ne prend rien.' },
    position: '2-0-1-0-0-0-4-4-4-4-4-4-11-10-S', show: 'A',
  },
  {
    text: { en: 'Taking the whole row. A capture that would leave the opponent without a seed is cancelled entirely; the sowing still counts and you do not get to pick another house.', fr: 'Tout rafler. Une prise qui laisserait l’adversaire sans graine est entièrement annulée ; le semis compte quand même et on ne choisit pas une autre case.' },
    position: '1-0-0-0-0-2-1-1-0-0-0-0-21-22-S', show: 'F',
  },
  {
    text: { en: 'Playing again after a capture. In Abapa the turn always passes.', fr: 'Rejouer après une prise. À l’Abapa, la main passe toujours.' },
    position: '0-0-0-0-0-2-1-1-0-0-4-0-20-20-S', show: 'F',
  },
  {
    text: { en: 'Forgetting to skip the emptied house on a long sowing.', fr: 'Oublier de sauter la case de départ lors d’un long semis.' },
    position: '12-0-0-0-0-0-1-1-1-1-1-1-15-15-S', show: 'A',
  },
  {
    text: { en: 'Starving the opponent on purpose. If their row is empty you must feed it when you can.', fr: 'Affamer l’adversaire exprès. Si sa rangée est vide, il faut la nourrir quand c’est possible.' },
    position: '3-0-0-0-0-1-0-0-0-0-0-0-22-22-S', show: 'F',
  },
  {
    text: { en: 'Bringing in rules from another mancala game, such as sowing into your store or capturing the house opposite. Check the variant first: this is Abapa.', fr: 'Importer les règles d’un autre mancala, comme semer dans sa réserve ou prendre la case d’en face. Vérifiez la variante : ici, c’est l’Abapa.' },
  },
];

export const TIPS = {
  en: [
    'Before you touch a house, count where its last seed will fall (hover over it here and the board shows you).',
    'Then ask what your opponent can take after your move. The coach warns you, and you can switch it off once you see it yourself.',
    'Say your plan out loud while learning: “I end here, there will be three.”',
    'A big house is a reserve: later it can reach the far side, feed your opponent or set up a long chain.',
  ],
  fr: [
    'Avant de toucher une case, comptez où tombera sa dernière graine (survolez-la ici et le plateau vous le montre).',
    'Demandez-vous ensuite ce que votre adversaire pourra prendre après votre coup. Le coach vous prévient, et vous pourrez le couper quand vous le verrez seul.',
    'En apprenant, dites votre plan à voix haute : « Je finis ici, il y en aura trois. »',
    'Une grosse case est une réserve : plus tard, elle pourra atteindre le fond du camp adverse, le nourrir ou préparer une longue chaîne.',
  ],
};

/** The rules on one page: headings and paragraphs. */
export const RULES_PAGE = {
  en: {
    intro: 'Oware Abapa is the tournament form of the West African sowing game also called Awalé or Awari. Two players, twelve houses, forty-eight seeds. The ids in brackets match the project’s rule specification.',
    sections: [
      ['Setting up (R1, R2)', ['Sit facing each other; each player owns the six houses on their side. Put four seeds in every house. The stores start empty and are only for captured seeds.', 'Choose or draw lots for who starts, then take turns. A capture never gives an extra turn.']],
      ['Sowing (R3, R4)', ['Empty one of your non-empty houses and sow its seeds one by one, counter-clockwise, into the following houses. Never sow into a store and never start from your opponent’s side.', 'With twelve seeds or more the sowing goes all the way round: skip the house you emptied every time you pass it.']],
      ['Capturing (R5, R6)', ['If the last seed lands on your opponent’s side in a house that now has two or three seeds, capture them. Then check the previous house, and the one before, and so on: capture each one that is on your opponent’s side and holds two or three, and stop at the first one that does not.', 'Only the last seed starts a capture, and never in your own row.']],
      ['Leaving the opponent something (R7, R8, R9)', ['A capture that would take every seed of your opponent’s row is cancelled: the sowing stays, but nothing is taken.', 'If your opponent’s row is empty at the start of your turn you must feed it if any move can. If none can, the game ends and you collect the seeds left in your row.']],
      ['End of the game (R10, R11, R12)', ['Capture 25 seeds and you have won at once; 24 each is a draw. When the player to move has no move, when the same position comes back a third time without a capture (while neither row is empty), or when both players agree to stop a game that only goes round in circles, each player takes the seeds on their own side and the larger total wins.']],
      ['Time (R13)', ['Players may agree on a time limit per move; a player who goes over it loses that turn. Online games may also use a clock with an increment: running out of time then loses the game.']],
    ],
  },
  fr: {
    intro: 'L’awalé Abapa est la forme de tournoi du jeu de semailles d’Afrique de l’Ouest qu’on appelle aussi oware ou awari. Deux joueurs, douze cases, quarante-huit graines. Les repères entre parenthèses renvoient à la spécification des règles du projet.',
    sections: [
      ['Mise en place (R1, R2)', ['Asseyez-vous face à face ; chacun possède les six cases de son côté. Mettez quatre graines dans chaque case. Les réserves sont vides au départ et ne servent qu’aux prises.', 'Choisissez ou tirez au sort le premier joueur, puis jouez chacun votre tour. Une prise ne donne jamais de coup en plus.']],
      ['Semer (R3, R4)', ['Videz une de vos cases non vides et semez ses graines une à une, dans le sens inverse des aiguilles d’une montre, dans les cases suivantes. On ne sème jamais dans une réserve et on ne part jamais d’une case adverse.', 'Avec douze graines ou plus, le semis fait le tour complet : sautez la case vidée chaque fois que vous repassez devant.']],
      ['Capturer (R5, R6)', ['Si la dernière graine tombe chez l’adversaire dans une case qui contient maintenant deux ou trois graines, prenez-les. Regardez ensuite la case précédente, puis celle d’avant, et ainsi de suite : prenez chacune de celles qui sont chez l’adversaire avec deux ou trois graines, et arrêtez-vous à la première qui ne l’est pas.', 'Seule la dernière graine déclenche une prise, et jamais dans votre propre rangée.']],
      ['Laisser quelque chose à l’adversaire (R7, R8, R9)', ['Une prise qui emporterait toutes les graines de la rangée adverse est annulée : le semis reste, mais rien n’est pris.', 'Si la rangée adverse est vide au début de votre tour, vous devez la nourrir si un coup le permet. Sinon, la partie s’arrête et vous ramassez les graines de votre rangée.']],
      ['Fin de la partie (R10, R11, R12)', ['Avec 25 graines capturées, vous avez gagné sur-le-champ ; 24 partout est une nulle. Quand le joueur au trait n’a aucun coup, quand la même position revient une troisième fois sans prise (et qu’aucune rangée n’est vide), ou quand les deux joueurs conviennent d’arrêter une partie qui tourne en rond, chacun prend les graines de son côté et le plus gros total gagne.']],
      ['Le temps (R13)', ['Les joueurs peuvent fixer un temps par coup ; celui qui le dépasse perd son tour. En ligne, on peut aussi jouer à la pendule avec incrément : tomber au temps fait alors perdre la partie.']],
    ],
  },
};
