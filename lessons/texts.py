"""Everything the hosts say, keyed as the step files name it.

The step files (steps/*.json) hold only machine data and these keys; the words
live here, in English, and in the ka/ru catalogues (locale/). A text may use
placeholders such as %(score)s: they are filled with facts the engine gives
for the position (facts.py), never typed in by hand.
"""

from django.utils.translation import gettext_lazy as _

HOSTS = {
    "keto": {
        "name": _("Grandma Keto"),
        "about": _("Grandma Keto has kept the score sheet at family tables for fifty years. "
                   "She knows every rule and is never in a hurry."),
    },
    "gio": {
        "name": _("Gio"),
        "about": _("Gio, her grandson, plays fast, teases a little and always knows the trick that wins a deal."),
    },
}

# Names of the seats in the lesson's positions (the "players" of their records).
SEAT_NAMES = {
    "you": _("You"),
    "keto": _("Keto"),
    "gio": _("Gio"),
    "dato": _("Dato"),
}

PATHS = {
    "classic": {
        "title": _("Classic Joker"),
        "blurb": _("Four players, bids and the score sheet: fourteen short steps, then a practice deal against three bots."),
    },
    "japanese": {
        "title": _("Japanese Joker"),
        "blurb": _("Two players and five table columns: nine short steps, then a practice deal against a bot."),
    },
}

TEXTS = {
    # ---------------------------------------------------------------- classic
    "classic.deck.title": _("The deck and the jokers"),
    "classic.deck.intro": _(
        "Sit down, dear, and look at the deck. Joker is played with 36 cards: six to ace in four suits. "
        "Two of the sixes have left it, and two jokers sit in their places. Inside a suit the ace is highest "
        "and the six lowest. A joker has no suit and no rank: whoever plays it says what it does."
    ),
    "classic.deck.q1": _("Which two cards did the jokers replace?"),
    "classic.deck.q1.6C_6S": _("the six of spades and the six of clubs"),
    "classic.deck.q1.6D_6H": _("the six of diamonds and the six of hearts"),
    "classic.deck.q1.AC_AS": _("the ace of spades and the ace of clubs"),
    "classic.deck.q1.right": _("Yes: the two black sixes are gone, and the red sixes stay in the deck."),
    "classic.deck.q1.wrong": _(
        "Look at the deck again: the red sixes are there. The black ones, spades and clubs, made way for the jokers."
    ),
    "classic.deck.q2": _("How many cards are in the deck?"),
    "classic.deck.q2.right": _("Right, %(size)s: the ordinary cards and the two jokers together."),
    "classic.deck.q2.wrong": _(
        "Count again: nine ranks in four suits make %(size)s, and the jokers only take the places of two sixes."
    ),

    "classic.follow-suit.title": _("Follow suit"),
    "classic.follow-suit.intro": _(
        "Dato led the queen of hearts. Whoever holds the suit that was led must play it. Any card of that suit "
        "will do: nobody is ever obliged to beat the card on the table."
    ),
    "classic.follow-suit.task": _("Hearts were led: play one of your hearts."),
    "classic.follow-suit.right": _(
        "Well done. You followed suit, and any heart was allowed: a high one to try for the trick, "
        "a low one to stay out of it."
    ),

    "classic.must-trump.title": _("No suit? Then trump"),
    "classic.must-trump.intro": _(
        "Dato led the king of clubs, and you have no clubs at all. Diamonds are trump in this deal, and you hold "
        "some. A player without the led suit who holds a trump must play a trump: any trump, not necessarily a high one."
    ),
    "classic.must-trump.task": _("You have no clubs: play a trump."),
    "classic.must-trump.right": _(
        "Exactly. Without the led suit a trump was your duty, and either diamond was fine. Only a player with "
        "neither the suit nor a trump may play any card at all."
    ),

    "classic.joker-take.title": _("The joker takes"),
    "classic.joker-take.intro": _(
        "Look at this trick: Keto led the king of spades, I put my ace on it, and Dato trumped with the ace of "
        "hearts, the highest trump there is. No ordinary card beats that. But you have a joker. A joker is always "
        "legal, and played as “take” it beats everything, the ace of trump included."
    ),
    "classic.joker-take.task": _("Take this trick with your joker."),
    "classic.joker-take.right": _("Ha! “Take” beats even the ace of trump. The trick is yours."),
    "classic.joker-take.discard": _(
        "Played as “discard”, a joker never wins: Dato’s ace of hearts would keep the trick. "
        "Say “take”."
    ),
    "classic.joker-take.other": _(
        "A small spade follows suit, but it cannot beat a trump: Dato would keep the trick. Your joker can do better."
    ),

    "classic.joker-discard.title": _("The joker discards"),
    "classic.joker-discard.intro": _(
        "You passed this deal: you promised to take nothing. Hearts were led and everybody followed with small "
        "hearts. Your only heart is the ace, and it would win. But a joker is always legal, and played as "
        "“discard” it never wins: the trick is decided as though it were not there."
    ),
    "classic.joker-discard.task": _("Stay out of this trick: play your joker as “discard”."),
    "classic.joker-discard.right": _(
        "Lovely. The joker slipped away without taking anything, and the trick went to the highest heart. "
        "Your pass is still safe."
    ),
    "classic.joker-discard.take": _(
        "A joker played as “take” wins the trick, and you promised to take nothing."
    ),
    "classic.joker-discard.ace": _(
        "The ace is the highest heart on the table: it would take the trick, and your pass would be broken."
    ),

    "classic.joker-lead-high.title": _("Lead the joker high"),
    "classic.joker-lead-high.intro": _(
        "Your lead, and here is a trick I love. Lead the joker as “take” (high) and name a suit: everyone "
        "who holds that suit must play their highest card of it, and your joker still takes the trick. You hold "
        "the king and queen of clubs. Who has the ace? Let’s make it come out."
    ),
    "classic.joker-lead-high.task": _("Lead the joker high and name clubs."),
    "classic.joker-lead-high.right": _(
        "That’s it! Everyone with clubs had to give up their highest one, and your joker took them all. "
        "Look: the ace of clubs fell, and your king is now the top club."
    ),
    "classic.joker-lead-high.low": _(
        "Led low (“discard”), the joker lets the strongest club take the trick: the ace would win "
        "instead of you. Lead it high."
    ),
    "classic.joker-lead-high.other": _(
        "That is a legal lead, but not this step’s move. Lead the joker as “take” and name clubs, "
        "to draw out the ace of clubs."
    ),

    "classic.joker-lead-low.title": _("Lead the joker low"),
    "classic.joker-lead-low.intro": _(
        "You passed again, and it is your lead. Led as “discard” (low), the joker lets the others take: "
        "the trick goes to the highest trump played, or else to the highest card of the suit you named. Careful: "
        "if nobody follows and nobody trumps, it stays with you. So name a suit the others hold. You have no "
        "spades, so they must have them."
    ),
    "classic.joker-lead-low.task": _("Lead the joker low and name spades."),
    "classic.joker-lead-low.right": _(
        "Good. The others had to play spades or trump, and the trick went to one of them. Your pass is safe, "
        "and the joker has left your hand."
    ),
    "classic.joker-lead-low.high": _("Led as “take”, the joker wins the trick, and you passed. Lead it low."),
    "classic.joker-lead-low.other": _(
        "That is a legal lead, but not this step’s move. Lead the joker low (“discard”) and name spades."
    ),

    "classic.two-jokers.title": _("Two jokers in one trick"),
    "classic.two-jokers.intro": _(
        "Keto led her joker high and named hearts, so Dato and I had to give up our highest hearts. Now you: you "
        "hold the queen of hearts and the other joker. When both jokers are played as “take” in one "
        "trick, the later one wins."
    ),
    "classic.two-jokers.task": _("Beat Keto’s joker: play yours as “take”."),
    "classic.two-jokers.right": _("Yes! The later joker takes. Keto gave her joker away for nothing."),
    "classic.two-jokers.discard": _("A joker played as “discard” never wins: Keto’s joker would keep the trick."),
    "classic.two-jokers.queen": _(
        "No card beats a joker played as “take”, not even an ace: Keto would keep the trick. "
        "Only your joker can beat hers."
    ),

    "classic.turned-trump.title": _("The turned card shows trump"),
    "classic.turned-trump.intro": _(
        "In deals of one to eight cards, the next card of the deck is turned face up after dealing. It belongs to "
        "nobody, it stays on the table for the whole deal, and its suit is trump. If the turned card is a joker, "
        "the deal has no trump. This is the very first deal of a game: one card each."
    ),
    "classic.turned-trump.q1": _("Which suit is trump in this deal?"),
    "classic.turned-trump.q1.none": _("no trump"),
    "classic.turned-trump.q1.right": _("Right: the turned card, %(card)s, makes %(suit)s trump for the whole deal."),
    "classic.turned-trump.q1.wrong": _("Look at the turned card beside the deck: %(card)s. Its suit is trump: %(suit)s."),

    "classic.trump-choice.title": _("Choosing trump from three cards"),
    "classic.trump-choice.intro": _(
        "In nine-card deals the whole deck goes out. Everyone gets three cards first, and the player to the "
        "dealer’s left (you, this time) looks at those three and names trump: one of the four suits, or no "
        "trump. Only then are the other six cards dealt."
    ),
    "classic.trump-choice.task": _("Choose trump from your first three cards."),
    "classic.trump-choice.right": _(
        "A good choice: the ace and king of hearts make hearts a fine trump. Now the other six cards come."
    ),
    "classic.trump-choice.spades": _(
        "One little spade is a thin reason. Your ace and king of hearts would be stronger as trumps."
    ),
    "classic.trump-choice.void": _(
        "You do not hold a single card of that suit yet. Choose the suit you are strong in: hearts."
    ),
    "classic.trump-choice.none": _(
        "No trump suits a hand of scattered small cards. With the ace and king of hearts, make hearts trump."
    ),

    "classic.dealer-bid.title": _("Bidding, and the dealer’s forbidden number"),
    "classic.dealer-bid.intro": _(
        "Before play, everyone says how many tricks they will take, from pass (nothing) to all of them. The dealer "
        "speaks last and may not say the one number that would make all the bids add up to the number of tricks: "
        "that way somebody at the table must miss. I said 2, Gio 3 and Dato 1: that is 6 of 9."
    ),
    "classic.dealer-bid.task": _("You are the dealer, and your hand is worth about three tricks. Make your bid."),
    "classic.dealer-bid.right": _(
        "Good: three was not allowed, so you took the nearest number that is. Somebody at this table will miss "
        "their bid; let’s hope it isn’t you."
    ),
    "classic.dealer-bid.low": _(
        "Too modest: your joker and two aces are worth about three tricks. Bid two or four."
    ),
    "classic.dealer-bid.high": _(
        "Too greedy for this hand: a joker and two aces make about three tricks. Bid two or four."
    ),

    "classic.scoring.title": _("Scoring a deal"),
    "classic.scoring.intro": _(
        "The deal is over; here is what everyone bid and took. A bid made exactly pays 50 for each trick bid, "
        "plus 50. A pass made pays 50. A missed bid pays only 10 for each trick taken. And whoever bid at least "
        "one and took nothing gets khishti, a penalty: 200 at this table."
    ),
    "classic.scoring.made": _("You bid %(bid)s and took %(took)s. What do you score?"),
    "classic.scoring.made.right": _("Right: a bid made exactly pays 50 for each trick bid, plus 50: %(score)s."),
    "classic.scoring.made.wrong": _(
        "A bid made exactly pays 50 for each trick bid, plus 50 more: (%(bid)s + 1) × 50 = %(score)s."
    ),
    "classic.scoring.pass": _("Keto passed and took nothing. What does she score?"),
    "classic.scoring.pass.right": _("Yes: a pass made is worth %(score)s."),
    "classic.scoring.pass.wrong": _("Taking nothing after a pass means the bid was made, and that is worth %(score)s."),
    "classic.scoring.khishti": _("Gio bid %(bid)s and took nothing. What does he score?"),
    "classic.scoring.khishti.right": _("Yes, khishti: %(score)s. Bidding and taking nothing is the worst result."),
    "classic.scoring.khishti.wrong": _(
        "Bidding at least one and taking nothing is khishti, and at this table it costs 200: %(score)s."
    ),
    "classic.scoring.failed": _("Dato bid %(bid)s and took %(took)s. What does he score?"),
    "classic.scoring.failed.right": _("Right: a missed bid pays only 10 for each trick taken: %(score)s."),
    "classic.scoring.failed.wrong": _(
        "Dato missed his bid (taking too many is a miss too), so he gets 10 for each trick: "
        "%(took)s × 10 = %(score)s."
    ),

    "classic.all-of-them.title": _("All of them"),
    "classic.all-of-them.intro": _(
        "My favourite line on the score sheet! Bid every trick of a deal and take them all, and each card of the "
        "deal is worth 100. In the second deal of this game, two cards each, you bid two and took both."
    ),
    "classic.all-of-them.q1": _("What did the second deal give you?"),
    "classic.all-of-them.q1.right": _(
        "%(score)s! All of them pays 100 for each card, more than a bid of two would pay otherwise."
    ),
    "classic.all-of-them.q1.wrong": _("Bid all, take all: 100 for each card of the deal. Two cards make %(score)s."),

    "classic.pulka.title": _("Premium and moshla"),
    "classic.pulka.intro": _(
        "Deals come in pulkas. Whoever made their bid in every deal of a pulka closes it and gets their best deal "
        "score of that pulka once more: the premium. And if anyone closed it, everyone who did not has their best "
        "score of the pulka struck off: the moshla. Here is a whole pulka of four nine-card deals."
    ),
    "classic.pulka.premium": _("You made every bid of this pulka. What premium do you get?"),
    "classic.pulka.premium.right": _("Yes: your best deal was %(best)s, and it counts once more."),
    "classic.pulka.premium.wrong": _("The premium is your best deal score of the pulka, counted again: %(best)s."),
    "classic.pulka.moshla": _("I missed one bid in this pulka. What does the moshla do to my total?"),
    "classic.pulka.moshla.right": _("Sadly, yes: my best deal, %(best)s, is struck off: %(moshla)s."),
    "classic.pulka.moshla.wrong": _(
        "One missed bid is enough. Because you closed the pulka, my best deal score of it, %(best)s, "
        "is struck off: %(moshla)s."
    ),

    # ---------------------------------------------------------------- japanese
    "japanese.columns.title": _("The five columns"),
    "japanese.columns.intro": _(
        "Japanese Joker is for two, with the same 36 cards, and every deal gives out the whole deck: 18 tricks. "
        "Each of us has a hand of eight and ten cards on the table in five columns: a face-down card with a "
        "face-up card on top of it."
    ),
    "japanese.columns.q1": _("Which of your cards can Gio see?"),
    "japanese.columns.q1.face_up": _("the face-up cards of your columns"),
    "japanese.columns.q1.hand": _("the cards in your hand"),
    "japanese.columns.q1.all": _("all of your cards"),
    "japanese.columns.q1.none": _("none of them"),
    "japanese.columns.q1.right": _("Right: face-up cards are public, yours and his. Your hand is yours alone."),
    "japanese.columns.q1.wrong": _(
        "Face-up cards lie open for both players, and a hand is private: Gio sees your five face-up cards, "
        "nothing more."
    ),
    "japanese.columns.q2": _("And the face-down cards under them: who sees those?"),
    "japanese.columns.q2.nobody": _("nobody, not even their owner"),
    "japanese.columns.q2.owner": _("only their owner"),
    "japanese.columns.q2.both": _("both players"),
    "japanese.columns.q2.right": _("Yes: nobody sees a face-down card until it reaches its owner’s hand."),
    "japanese.columns.q2.wrong": _(
        "A face-down card stays unseen by everyone, its owner too, until it goes into its owner’s hand."
    ),

    "japanese.first-card.title": _("The first card comes from the hand"),
    "japanese.first-card.intro": _(
        "You chose hearts as trump, so you lead the first trick. Your cards to play are your hand and the face-up "
        "cards of your columns, but each player’s first card of a deal must come from the hand."
    ),
    "japanese.first-card.task": _("Lead your first card from your hand."),
    "japanese.first-card.right": _("Good. From now on your face-up column cards may be played too."),

    "japanese.face-down.title": _("A face-down card comes to your hand"),
    "japanese.face-down.intro": _(
        "You won the first trick, so you lead again, and your columns are open for play. Play a column’s "
        "face-up card and the column empties: the face-down card under it is not turned over on the table, it "
        "goes straight into your hand. Yes, your hand can grow during a deal!"
    ),
    "japanese.face-down.task": _("Lead the ace of spades from your column."),
    "japanese.face-down.right": _(
        "See? The card under your ace went into your hand. Only you can see it, and you can play it later."
    ),
    "japanese.face-down.other": _(
        "Legal, but not this step’s move. Lead the ace of spades from your column and watch what was under it."
    ),

    "japanese.last-two.title": _("The last two columns"),
    "japanese.last-two.intro": _(
        "You have two columns left. When a player with exactly two columns plays the face-up card of one of them, "
        "the table clears at once: the face-down card under it and both cards of the other column go into the "
        "hand. A single column never stays on the table."
    ),
    "japanese.last-two.task": _("Lead the face-up card of one of your two columns."),
    "japanese.last-two.right": _(
        "There: three cards came into your hand at once, and your side of the table is empty. "
        "From here on you play from the hand."
    ),
    "japanese.last-two.other": _(
        "Legal, but not this step’s move. Lead one of your two face-up column cards and watch the table clear."
    ),

    "japanese.joker-demand.title": _("The joker asks for the highest card"),
    "japanese.joker-demand.intro": _(
        "Gio led his joker and named spades. In Japanese Joker a joker always takes, and a joker that leads makes "
        "a demand: the other player, holding that suit, must play their highest card of it, from the hand or from "
        "the face-up column cards alike."
    ),
    "japanese.joker-demand.task": _("Answer Gio’s joker."),
    "japanese.joker-demand.right": _(
        "Right: the king of spades was your highest spade, even though it lay on the table. Gio’s joker takes "
        "the trick; it was his to take."
    ),

    "japanese.trump-beats-joker.title": _("A trump beats the joker’s demand"),
    "japanese.trump-beats-joker.intro": _(
        "My joker leads and names clubs. Hearts are trump, and you have no clubs at all. Without the named suit you "
        "must trump if you can, and here is the surprise: when a joker demands a suit that is not trump, "
        "a trump beats it!"
    ),
    "japanese.trump-beats-joker.task": _("You have no clubs: play a trump."),
    "japanese.trump-beats-joker.right": _(
        "Ouch, my joker! A trump beats a joker that named a plain suit. Had I named hearts, only the other joker "
        "could have beaten it."
    ),

    "japanese.joker-lead.title": _("Lead the joker and name trump"),
    "japanese.joker-lead.intro": _(
        "Now you have a joker and the lead, and spades are trump. Remember what just happened to me? A joker that "
        "names a plain suit can be trumped. Name the trump suit instead, and only the other joker could beat it."
    ),
    "japanese.joker-lead.task": _("Lead your joker and name trump."),
    "japanese.joker-lead.right": _(
        "Safe and sound: a joker that names trump can be beaten only by the other joker. And I had to give you my "
        "highest spade!"
    ),
    "japanese.joker-lead.plain": _(
        "Risky: if I have none of that suit, I may trump your joker and take the trick. Name trump instead."
    ),
    "japanese.joker-lead.other": _(
        "Legal, but this step is about the joker. Lead it and name trump."
    ),

    "japanese.scoring.title": _("Scoring a deal: the difference"),
    "japanese.scoring.intro": _(
        "After 18 tricks, whoever took more scores the difference, and the other scores nothing. "
        "Nine tricks each scores nothing for either."
    ),
    "japanese.scoring.mine": _("You took %(mine)s tricks and Gio %(theirs)s. How many points do you score?"),
    "japanese.scoring.mine.right": _("Yes: %(mine)s − %(theirs)s = %(points)s."),
    "japanese.scoring.mine.wrong": _("Only the difference counts: %(mine)s − %(theirs)s = %(points)s."),
    "japanese.scoring.theirs": _("And what does Gio score?"),
    "japanese.scoring.theirs.right": _("Right, nothing: only the winner of the deal scores."),
    "japanese.scoring.theirs.wrong": _(
        "The loser of a deal scores nothing, and in Japanese Joker points are never taken away."
    ),

    "japanese.match.title": _("The match target"),
    "japanese.match.intro": _(
        "Deal after deal the points add up, until someone reaches the target the table chose: 11, 15, 21 or 31. "
        "The first whose total reaches or passes it at the end of a deal wins the match. "
        "This match was played to %(target)s."
    ),
    "japanese.match.winner": _("Who won the match?"),
    "japanese.match.winner.none": _("nobody yet"),
    "japanese.match.winner.right": _("Yes: after the third deal your total passed %(target)s, and the match was yours."),
    "japanese.match.winner.wrong": _(
        "Add up the points: after the third deal yours passed %(target)s, so the match ended there, and it was yours."
    ),
    "japanese.match.total": _("What was your final total?"),
    "japanese.match.total.right": _(
        "%(total)s. Passing the target is quite normal: a single deal can be worth up to 18."
    ),
    "japanese.match.total.wrong": _(
        "Add up your deals: %(total)s. You may pass the target by a lot; whoever reaches it first wins."
    ),
}
