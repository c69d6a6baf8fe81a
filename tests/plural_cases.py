"""The messages whose count can be 1, with their texts for 1 and for 2 in every language:
the cases of tests/test_plurals.py (the terminal's translator, the built catalogs) and of
tests/web/test_plurals_web.py (the page's ``t`` and ``say``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Params = Callable[[int], dict[str, Any]]
Texts = dict[str, tuple[str, str]]
"""Language -> (the text for a count of 1, the text for 2)."""


def _n(n: int) -> dict[str, Any]:
    return {"n": n}


def _lives(n: int) -> dict[str, Any]:
    return {"lives": n}


def _rubber_lives(n: int) -> dict[str, Any]:
    return {"rubber": 2, "lives": n}


PO: dict[str, tuple[Params, Texts]] = {
    "summary.rubber_next": (_rubber_lives, {
        "en": ("Rubber 2 begins: everyone is back to 1 life.",
               "Rubber 2 begins: everyone is back to 2 lives."),
        "nl": ("Partij 2 begint: iedereen heeft weer 1 leven.",
               "Partij 2 begint: iedereen heeft weer 2 levens."),
        "de": ("Robber 2 beginnt: alle haben wieder 1 Leben.",
               "Robber 2 beginnt: alle haben wieder 2 Leben."),
        "it": ("Comincia la partita 2: tutti tornano a 1 vita.",
               "Comincia la partita 2: tutti tornano a 2 vite."),
        "nb": ("Parti 2 begynner: alle har 1 liv igjen.",
               "Parti 2 begynner: alle har 2 liv igjen."),
    }),
    "standings.fig.in": (_lives, {
        "en": ("still in, 1 life left", "still in, 2 lives left"),
        "nl": ("nog in het spel, 1 leven over", "nog in het spel, 2 levens over"),
        "de": ("noch dabei, 1 Leben übrig", "noch dabei, 2 Leben übrig"),
        "it": ("ancora in gioco, con 1 vita", "ancora in gioco, con 2 vite"),
        "nb": ("fortsatt med, 1 liv igjen", "fortsatt med, 2 liv igjen"),
    }),
    "standings.fig.winner": (_lives, {
        "en": ("the last one in, 1 life left", "the last one in, 2 lives left"),
        "nl": ("als laatste over, nog 1 leven", "als laatste over, nog 2 levens"),
        "de": ("als Letzter noch dabei, 1 Leben übrig", "als Letzter noch dabei, 2 Leben übrig"),
        "it": ("l'ultimo rimasto, con 1 vita", "l'ultimo rimasto, con 2 vite"),
        "nb": ("den siste igjen, 1 liv igjen", "den siste igjen, 2 liv igjen"),
    }),
    "standings.fig.rubber_now": (lambda n: {"drinks": 0, "rubbers": 1, "lives": n}, {
        "en": ("rounds owed: 0, rubbers won: 1, 1 life in this rubber",
               "rounds owed: 0, rubbers won: 1, 2 lives in this rubber"),
        "nl": ("rondjes schuldig: 0, partijen gewonnen: 1, 1 leven in deze partij",
               "rondjes schuldig: 0, partijen gewonnen: 1, 2 levens in deze partij"),
        "de": ("geschuldete Runden: 0, gewonnene Robber: 1, 1 Leben in diesem Robber",
               "geschuldete Runden: 0, gewonnene Robber: 1, 2 Leben in diesem Robber"),
        "it": ("giri dovuti: 0, partite vinte: 1, 1 vita in questa partita",
               "giri dovuti: 0, partite vinte: 1, 2 vite in questa partita"),
        "nb": ("runder skyldt: 0, partier vunnet: 1, 1 liv i dette partiet",
               "runder skyldt: 0, partier vunnet: 1, 2 liv i dette partiet"),
    }),
    "refusal.blind_knock_lives": (lambda n: {"seat": "Bas", "lives": n}, {
        "en": ("Bas may not knock blind with 1 life: it raises the stake to 3.",
               "Bas may not knock blind with 2 lives: it raises the stake to 3."),
        "nl": ("Bas mag niet blind toepen met 1 leven: de inzet gaat dan naar 3.",
               "Bas mag niet blind toepen met 2 levens: de inzet gaat dan naar 3."),
        "de": ("Bas darf mit 1 Leben nicht blind klopfen: der Einsatz stiege auf 3.",
               "Bas darf mit 2 Leben nicht blind klopfen: der Einsatz stiege auf 3."),
        "it": ("Bas non può bussare alla cieca con 1 vita: la posta salirebbe a 3.",
               "Bas non può bussare alla cieca con 2 vite: la posta salirebbe a 3."),
        "nb": ("Bas kan ikke banke blindt med 1 liv: innsatsen går til 3.",
               "Bas kan ikke banke blindt med 2 liv: innsatsen går til 3."),
    }),
    "refusal.fold_on_edge": (lambda n: {"seat": "Bas", "paid": n, "lives": n}, {
        "en": ("Bas may not fold: paying 1 of 1 life would put them out (op scherp).",
               "Bas may not fold: paying 2 of 2 lives would put them out (op scherp)."),
        "nl": ("Bas mag niet passen: 1 van 1 leven betalen zou het einde zijn (op scherp).",
               "Bas mag niet passen: 2 van 2 levens betalen zou het einde zijn (op scherp)."),
        "de": ("Bas darf nicht aussteigen: 1 von 1 Leben zu zahlen hieße ausscheiden (op scherp).",
               "Bas darf nicht aussteigen: 2 von 2 Leben zu zahlen hieße ausscheiden (op scherp)."),
        "it": ("Bas non può ritirarsi: pagare 1 di 1 vita vorrebbe dire uscire (op scherp).",
               "Bas non può ritirarsi: pagare 2 di 2 vite vorrebbe dire uscire (op scherp)."),
        "nb": ("Bas kan ikke kaste seg: å betale 1 av 1 liv ville sende dem ut (op scherp).",
               "Bas kan ikke kaste seg: å betale 2 av 2 liv ville sende dem ut (op scherp)."),
    }),
    "refusal.knock_exceeds_lives": (lambda n: {"seat": "Bas", "new_stake": n + 1, "lives": n}, {
        "en": ("You may not knock: the new stake 2 would exceed your 1 life.",
               "You may not knock: the new stake 3 would exceed your 2 lives."),
        "nl": ("Je mag niet toepen: de nieuwe inzet 2 is meer dan je 1 leven.",
               "Je mag niet toepen: de nieuwe inzet 3 is meer dan je 2 levens."),
        "de": ("Du darfst nicht klopfen: der neue Einsatz 2 wäre mehr als dein einziges Leben.",
               "Du darfst nicht klopfen: der neue Einsatz 3 wäre mehr als deine 2 Leben."),
        "it": ("Non puoi bussare: la nuova posta 2 supererebbe la tua unica vita.",
               "Non puoi bussare: la nuova posta 3 supererebbe le tue 2 vite."),
        "nb": ("Du kan ikke banke: ny innsats 2 er mer enn ditt ene liv.",
               "Du kan ikke banke: ny innsats 3 er mer enn dine 2 liv."),
    }),
    "refusal.knock_lives_below_stake": (lambda n: {"seat": "Bas", "lives": n, "stake": 3}, {
        "en": ("You may not knock: your 1 life is below the stake 3.",
               "You may not knock: your 2 lives are below the stake 3."),
        "nl": ("Je mag niet toepen: je 1 leven is minder dan de inzet 3.",
               "Je mag niet toepen: je 2 levens zijn minder dan de inzet 3."),
        "de": ("Du darfst nicht klopfen: dein einziges Leben liegt unter dem Einsatz 3.",
               "Du darfst nicht klopfen: deine 2 Leben liegen unter dem Einsatz 3."),
        "it": ("Non puoi bussare: hai solo 1 vita, meno della posta 3.",
               "Non puoi bussare: le tue 2 vite sono meno della posta 3."),
        "nb": ("Du kan ikke banke: ditt ene liv er under innsatsen 3.",
               "Du kan ikke banke: dine 2 liv er under innsatsen 3."),
    }),
    "account.error.rate_limited": (lambda n: {"seconds": n}, {
        "en": ("Too many attempts: try again in 1 second.",
               "Too many attempts: try again in 2 seconds."),
        "nl": ("Te veel pogingen: probeer het over 1 seconde opnieuw.",
               "Te veel pogingen: probeer het over 2 seconden opnieuw."),
        "de": ("Zu viele Versuche: versuche es in 1 Sekunde wieder.",
               "Zu viele Versuche: versuche es in 2 Sekunden wieder."),
        "it": ("Troppi tentativi: riprova tra 1 secondo.",
               "Troppi tentativi: riprova tra 2 secondi."),
        "nb": ("For mange forsøk: prøv igjen om 1 sekund.",
               "For mange forsøk: prøv igjen om 2 sekunder."),
    }),
    "review.decisions": (_n, {
        "en": ("1 decision", "2 decisions"),
        "nl": ("1 beslissing", "2 beslissingen"),
        "de": ("1 Entscheidung", "2 Entscheidungen"),
        "it": ("1 decisione", "2 decisioni"),
        "nb": ("1 beslutning", "2 beslutninger"),
    }),
    "review.summary": (lambda n: {"decisions": "D", "n": n, "cost": "0.50"}, {
        "en": ("D, 1 of them a mistake; it cost 0.50 lives.",
               "D, 2 of them mistakes; together they cost 0.50 lives."),
        "nl": ("D, waarvan 1 fout; die kostte 0.50 levens.",
               "D, waarvan 2 fouten; samen kostten die 0.50 levens."),
        "de": ("D, davon 1 Fehler; er kostete 0.50 Leben.",
               "D, davon 2 Fehler; zusammen kosteten sie 0.50 Leben."),
        "it": ("D, di cui 1 errore; è costato 0.50 vite.",
               "D, di cui 2 errori; insieme sono costati 0.50 vite."),
        "nb": ("D, hvorav 1 feil; den kostet 0.50 liv.",
               "D, hvorav 2 feil; til sammen kostet de 0.50 liv."),
    }),
    "review.progress": (lambda n: {"done": 0, "total": n}, {
        "en": ("Reviewing decisions: 0 of 1", "Reviewing decisions: 0 of 2"),
        "nl": ("Beslissingen analyseren: 0 van 1", "Beslissingen analyseren: 0 van 2"),
        "de": ("Analyse der Entscheidungen: 0 von 1", "Analyse der Entscheidungen: 0 von 2"),
        "it": ("Analisi delle decisioni: 0 di 1", "Analisi delle decisioni: 0 di 2"),
        "nb": ("Analyserer beslutninger: 0 av 1", "Analyserer beslutninger: 0 av 2"),
    }),
    "rules.lives": (_n, {
        "en": ("Everyone starts with 1 life.", "Everyone starts with 2 lives."),
        "nl": ("Iedereen begint met 1 leven.", "Iedereen begint met 2 levens."),
        "de": ("Alle beginnen mit 1 Leben.", "Alle beginnen mit 2 Leben."),
        "it": ("Ognuno comincia con 1 vita.", "Ognuno comincia con 2 vite."),
        "nb": ("Alle starter med 1 liv.", "Alle starter med 2 liv."),
    }),
    "rules.session.rubber": (_n, {
        "en": ("When someone reaches 0 the rubber ends, every player at 0 owes a round and "
               "lives reset; 1 rubber.",
               "When someone reaches 0 the rubber ends, every player at 0 owes a round and "
               "lives reset; 2 rubbers."),
        "nl": ("Als iemand op 0 komt, eindigt de partij, wie op 0 staat geeft een rondje en de "
               "levens beginnen opnieuw; 1 partij.",
               "Als iemand op 0 komt, eindigt de partij, wie op 0 staat geeft een rondje en de "
               "levens beginnen opnieuw; 2 partijen."),
        "de": ("Erreicht jemand 0, endet der Robber, wer auf 0 steht, schuldet eine Runde und "
               "die Leben beginnen neu; 1 Robber.",
               "Erreicht jemand 0, endet der Robber, wer auf 0 steht, schuldet eine Runde und "
               "die Leben beginnen neu; 2 Robber."),
        "it": ("Quando qualcuno arriva a 0 la partita finisce, chi è a 0 offre un giro e le vite "
               "ripartono; 1 partita.",
               "Quando qualcuno arriva a 0 la partita finisce, chi è a 0 offre un giro e le vite "
               "ripartono; 2 partite."),
        "nb": ("Når noen når 0 er partiet over, alle på 0 skylder en runde og livene starter på "
               "nytt; 1 parti.",
               "Når noen når 0 er partiet over, alle på 0 skylder en runde og livene starter på "
               "nytt; 2 partier."),
    }),
    "rules_cmd.facts": (lambda n: {"sizes": "3–6", "lives": n}, {
        "en": ("3–6 players · 1 life", "3–6 players · 2 lives"),
        "nl": ("3–6 spelers · 1 leven", "3–6 spelers · 2 levens"),
        "de": ("3–6 Spieler · 1 Leben", "3–6 Spieler · 2 Leben"),
        "it": ("3–6 giocatori · 1 vita", "3–6 giocatori · 2 vite"),
        "nb": ("3–6 spillere · 1 liv", "3–6 spillere · 2 liv"),
    }),
    "tally.title": (lambda n: {"rules": "R", "lives": n}, {
        "en": ("Score sheet: R, 1 life", "Score sheet: R, 2 lives"),
        "nl": ("Scorebord: R, 1 leven", "Scorebord: R, 2 levens"),
        "de": ("Spielzettel: R, 1 Leben", "Spielzettel: R, 2 Leben"),
        "it": ("Segnapunti: R, 1 vita", "Segnapunti: R, 2 vite"),
        "nb": ("Poengliste: R, 1 liv", "Poengliste: R, 2 liv"),
    }),
    "tally.title_points": (lambda n: {"rules": "R", "lives": n}, {
        "en": ("Score sheet: R, up to 1 penalty point", "Score sheet: R, up to 2 penalty points"),
        "nl": ("Scorebord: R, tot 1 strafpunt", "Scorebord: R, tot 2 strafpunten"),
        "de": ("Spielzettel: R, bis 1 Strafpunkt", "Spielzettel: R, bis 2 Strafpunkte"),
        "it": ("Segnapunti: R, fino a 1 penalità", "Segnapunti: R, fino a 2 penalità"),
        "nb": ("Poengliste: R, opp til 1 straffepoeng", "Poengliste: R, opp til 2 straffepoeng"),
    }),
    "screen.stock": (_n, {
        "en": ("stock: 1 card", "stock: 2 cards"),
        "nl": ("stapel: 1 kaart", "stapel: 2 kaarten"),
        "de": ("Stapel: 1 Karte", "Stapel: 2 Karten"),
        "it": ("mazzo: 1 carta", "mazzo: 2 carte"),
        "nb": ("bunke: 1 kort", "bunke: 2 kort"),
    }),
    "log.resumed": (_n, {
        "en": ("Game resumed after 1 move.", "Game resumed after 2 moves."),
        "nl": ("Spel hervat na 1 zet.", "Spel hervat na 2 zetten."),
        "de": ("Partie nach 1 Zug fortgesetzt.", "Partie nach 2 Zügen fortgesetzt."),
        "it": ("Partita ripresa dopo 1 mossa.", "Partita ripresa dopo 2 mosse."),
        "nb": ("Spillet fortsetter etter 1 trekk.", "Spillet fortsetter etter 2 trekk."),
    }),
    "error.bots_count": (lambda n: {"n": n, "given": 3}, {
        "en": ("--bots: give one name, not 3",
               "--bots: give one name or 2 names (one per bot seat), not 3"),
        "nl": ("--bots: geef één naam, niet 3",
               "--bots: geef één naam of 2 namen (één per bot), niet 3"),
        "de": ("--bots: einen Namen angeben, nicht 3",
               "--bots: einen Namen oder 2 Namen angeben (einen je Bot), nicht 3"),
        "it": ("--bots: indica un nome, non 3",
               "--bots: indica un nome o 2 nomi (uno per bot), non 3"),
        "nb": ("--bots: oppgi ett navn, ikke 3",
               "--bots: oppgi ett navn eller 2 navn (ett per bot), ikke 3"),
    }),
    "log.rebuy": (lambda n: {"name": "Ann", "n": n}, {
        "en": ("Ann buys back in with 1 life.", "Ann buys back in with 2 lives."),
        "nl": ("Ann koopt zich in met 1 leven.", "Ann koopt zich in met 2 levens."),
        "de": ("Ann kauft sich mit 1 Leben wieder ein.", "Ann kauft sich mit 2 Leben wieder ein."),
        "it": ("Ann si ricompra con 1 vita.", "Ann si ricompra con 2 vite."),
        "nb": ("Ann kjøper seg inn igjen med 1 liv.", "Ann kjøper seg inn igjen med 2 liv."),
    }),
    "log.you.rebuy": (_n, {
        "en": ("You buy back in with 1 life.", "You buy back in with 2 lives."),
        "nl": ("Je koopt je in met 1 leven.", "Je koopt je in met 2 levens."),
        "de": ("Du kaufst dich mit 1 Leben wieder ein.", "Du kaufst dich mit 2 Leben wieder ein."),
        "it": ("Ti ricompri con 1 vita.", "Ti ricompri con 2 vite."),
        "nb": ("Du kjøper deg inn igjen med 1 liv.", "Du kjøper deg inn igjen med 2 liv."),
    }),
    "standings.fig.rebuys": (lambda n: {"figures": "x", "n": n}, {
        "en": ("x, bought back in once", "x, bought back in 2 times"),
        "nl": ("x, 1 keer ingekocht", "x, 2 keer ingekocht"),
        "de": ("x, 1-mal wieder eingekauft", "x, 2-mal wieder eingekauft"),
        "it": ("x, ricomprato una volta", "x, ricomprato 2 volte"),
        "nb": ("x, kjøpt seg inn igjen én gang", "x, kjøpt seg inn igjen 2 ganger"),
    }),
}
"""The shared catalogs' messages (the terminal's and the browser's) whose count can be 1."""

WEB: dict[str, tuple[Params, Texts]] = {
    "web.log_skipped": (_n, {
        "en": ("1 earlier event is not shown.", "2 earlier events are not shown."),
        "nl": ("1 eerdere gebeurtenis wordt niet getoond.",
               "2 eerdere gebeurtenissen worden niet getoond."),
        "de": ("1 früheres Ereignis wird nicht angezeigt.",
               "2 frühere Ereignisse werden nicht angezeigt."),
        "it": ("1 evento precedente non è mostrato.", "2 eventi precedenti non sono mostrati."),
        "nb": ("1 tidligere hendelse vises ikke.", "2 tidligere hendelser vises ikke."),
    }),
    "web.pot.rebuy_lives": (_n, {
        "en": ("Buy back in and you come back with 1 life.",
               "Buy back in and you come back with 2 lives."),
        "nl": ("Koop je je in, dan kom je terug met 1 leven.",
               "Koop je je in, dan kom je terug met 2 levens."),
        "de": ("Kaufst du dich ein, kommst du mit 1 Leben zurück.",
               "Kaufst du dich ein, kommst du mit 2 Leben zurück."),
        "it": ("Se ti ricompri, torni con 1 vita.", "Se ti ricompri, torni con 2 vite."),
        "nb": ("Kjøper du deg inn, kommer du tilbake med 1 liv.",
               "Kjøper du deg inn, kommer du tilbake med 2 liv."),
    }),
    "web.pub.speech.lives": (lambda n: {"name": "Ann", "n": n}, {
        "en": ("Ann, 1 life", "Ann, 2 lives"), "nl": ("Ann, 1 leven", "Ann, 2 levens"),
        "de": ("Ann, 1 Leben", "Ann, 2 Leben"), "it": ("Ann, 1 vita", "Ann, 2 vite"),
        "nb": ("Ann, 1 liv", "Ann, 2 liv"),
    }),
    "web.pub.speech.points": (lambda n: {"name": "Ann", "n": n}, {
        "en": ("Ann, 1 point", "Ann, 2 points"), "nl": ("Ann, 1 punt", "Ann, 2 punten"),
        "de": ("Ann, 1 Punkt", "Ann, 2 Punkte"), "it": ("Ann, 1 punto", "Ann, 2 punti"),
        "nb": ("Ann, 1 poeng", "Ann, 2 poeng"),
    }),
    "web.cards_n": (_n, {
        "en": ("1 card", "2 cards"), "nl": ("1 kaart", "2 kaarten"), "de": ("1 Karte", "2 Karten"),
        "it": ("1 carta", "2 carte"), "nb": ("1 kort", "2 kort"),
    }),
    "web.lives": (_n, {
        "en": ("1 life", "2 lives"), "nl": ("1 leven", "2 levens"), "de": ("1 Leben", "2 Leben"),
        "it": ("1 vita", "2 vite"), "nb": ("1 liv", "2 liv"),
    }),
    "web.drinks_n": (_n, {
        "en": ("1 round", "2 rounds"), "nl": ("1 rondje", "2 rondjes"),
        "de": ("1 Runde", "2 Runden"), "it": ("1 giro", "2 giri"), "nb": ("1 runde", "2 runder"),
    }),
    "web.rubbers_won_n": (_n, {
        "en": ("1 rubber won", "2 rubbers won"), "nl": ("1 partij gewonnen", "2 partijen gewonnen"),
        "de": ("1 Robber gewonnen", "2 Robber gewonnen"),
        "it": ("1 partita vinta", "2 partite vinte"),
        "nb": ("1 parti vunnet", "2 partier vunnet"),
    }),
    "web.strokes": (_n, {
        "en": ("1 stroke", "2 strokes"), "nl": ("1 streepje", "2 streepjes"),
        "de": ("1 Strich", "2 Striche"), "it": ("1 segno", "2 segni"),
        "nb": ("1 strek", "2 streker"),
    }),
    "web.here.guests": (_n, {
        "en": ("and 1 guest", "and 2 guests"), "nl": ("en 1 gast", "en 2 gasten"),
        "de": ("und 1 Gast", "und 2 Gäste"), "it": ("e 1 ospite", "e 2 ospiti"),
        "nb": ("og 1 gjest", "og 2 gjester"),
    }),
    "web.here.only_guests": (_n, {
        "en": ("1 guest is here.", "2 guests are here."),
        "nl": ("1 gast is er.", "2 gasten zijn er."),
        "de": ("1 Gast ist da.", "2 Gäste sind da."), "it": ("C'è 1 ospite.", "Ci sono 2 ospiti."),
        "nb": ("1 gjest er her.", "2 gjester er her."),
    }),
    "web.free_seats": (_n, {
        "en": ("1 free", "2 free"), "nl": ("1 vrij", "2 vrij"), "de": ("1 frei", "2 frei"),
        "it": ("1 libero", "2 liberi"), "nb": ("1 ledig", "2 ledige"),
    }),
    "web.spectators_n": (_n, {
        "en": ("1 watching", "2 watching"), "nl": ("1 kijkt mee", "2 kijken mee"),
        "de": ("1 schaut zu", "2 schauen zu"), "it": ("1 guarda", "2 guardano"),
        "nb": ("1 ser på", "2 ser på"),
    }),
    "web.club.error.draw": (_n, {
        "en": ("1 player cannot be seated at tables these rules allow.",
               "2 players cannot be seated at tables these rules allow."),
        "nl": ("1 speler past niet aan tafels die deze regels toestaan.",
               "2 spelers passen niet aan tafels die deze regels toestaan."),
        "de": ("1 Spieler passt nicht an Tische, die diese Regeln erlauben.",
               "2 Spieler passen nicht an Tische, die diese Regeln erlauben."),
        "it": ("1 giocatore non si può sedere ai tavoli che queste regole permettono.",
               "2 giocatori non si possono sedere ai tavoli che queste regole permettono."),
        "nb": ("1 spiller får ikke plass ved bord disse reglene tillater.",
               "2 spillere får ikke plass ved bord disse reglene tillater."),
    }),
    "web.playnow.counts": (lambda n: {"waiting": n, "playing": n}, {
        "en": ("1 waiting, 1 playing", "2 waiting, 2 playing"),
        "nl": ("1 wachtend, 1 aan het spelen", "2 wachtend, 2 aan het spelen"),
        "de": ("1 wartend, 1 im Spiel", "2 wartend, 2 im Spiel"),
        "it": ("1 in attesa, 1 in gioco", "2 in attesa, 2 in gioco"),
        "nb": ("1 venter, 1 spiller", "2 venter, 2 spiller"),
    }),
    "web.acct.vs_people": (lambda n: {"won": n, "sessions": 3}, {
        "en": ("Against people: 1 won of 3", "Against people: 2 won of 3"),
        "nl": ("Tegen mensen: 1 gewonnen van 3", "Tegen mensen: 2 gewonnen van 3"),
        "de": ("Gegen Menschen: 1 von 3 gewonnen", "Gegen Menschen: 2 von 3 gewonnen"),
        "it": ("Contro persone: vinte 1 su 3", "Contro persone: vinte 2 su 3"),
        "nb": ("Mot mennesker: 1 vunnet av 3", "Mot mennesker: 2 vunnet av 3"),
    }),
}
"""The browser's own messages (``static/i18n/web-extra*.json``) whose count can be 1."""
