/**
 * The words that ask Loop to stop or to help, in the languages Loop's members write: English,
 * Spanish, French, Portuguese, German, Italian (decisions 0034 and 0055). Every entry is compared
 * after `plainWords` (lower case, accents and apostrophes gone, anything not a letter a space), so
 * "ARRÊT!" is `arret` and "ne m'envoyez plus" is `ne menvoyez plus`. Each list is one string per
 * language, entries separated by `|`, so a reviewer reads a language on a line or two.
 */

const list = (...languages: string[]): string[] => languages.flatMap((l) => l.split('|').map((w) => w.trim()));

/**
 * Whole texts that opt out, compared as letters only ("S T O P", "Opt-out", "Arrêt."). Twilio's
 * own (https://help.twilio.com/articles/223134027), the carriers' required list as AWS publishes
 * it (ARRET, REMOVE: https://docs.aws.amazon.com/sms-voice/latest/userguide/keywords-required.html),
 * and each language's "stop", "unsubscribe", "cancel", "leave", "enough". Left out on purpose:
 * Italian FINE (English "fine" is "all right"), TD (also "touchdown").
 */
export const OPT_OUT_WORDS = list(
  'stop|stopall|unsubscribe|cancel|end|quit|optout|revoke|remove',
  'parar|para|pare|alto|baja|detener|cancelar|cancela|anular|basta|desuscribir|desuscribirme|darmedebaja|salir',
  'arret|arrete|arretez|arreter|stopper|annuler|annulez|desabonner|desabonnement|desinscrire|desinscription|fin',
  'sair|descadastrar|descadastre|chega|cancele',
  'stopp|abmelden|abbestellen|beenden|ende|austragen|aufhoren|aufhoeren|schluss',
  'annulla|cancella|cancellami|disiscrivi|disiscrivimi|disiscrizione|smettila|smettetela',
).map((w) => w.toUpperCase());

/** Short requests, whole (after politeness is taken off either end). */
export const OPT_OUT_PHRASES_ALL = list(
  'stop it|quit it|cut it out|leave me alone|i want out|count me out|no more|unsubscribe me|opt me out|remove me|delete me',
  'dame de baja|darme de baja|darse de baja|sacame|quitame|borrame|eliminame|dejame en paz|ya no quiero mensajes|no me escribas mas',
  'arrete ca|arretez ca|desabonnez moi|desabonne moi|desinscrivez moi|desinscris moi|retirez moi|retire moi|enlevez moi|laissez moi tranquille|fichez moi la paix',
  'me descadastre|me remova|remova me|me tire|me tira|me deixa em paz|nao quero mais mensagens',
  'hor auf|hoer auf|horen sie auf|hort auf|lass mich in ruhe|melde mich ab|meldet mich ab|mich abmelden|ich will raus',
  'basta cosi|lasciami in pace|toglimi|rimuovimi|cancellatemi|non scrivetemi piu|non scrivermi piu',
);

/**
 * Openings of a request to stop that name Loop's texts or the sender: a text that starts with one
 * and goes on with TAIL words only ("Stop texting me about this loop", "Take me out of this
 * group") opts out; one that goes on with other words ("Stop texting me about Smith Family") or
 * that has one after other words ("Ugh, stop texting me") is unclear: held and asked.
 */
export const OPT_OUT_STRONG_HEADS = list(
  'stop texting|stop sending|stop messaging|unsubscribe|unsubscribe me|opt out|opt me out|remove me|remove my number|remove us|delete me|delete my number',
  'take me off|take me out|take my number off|get me out|let me out|count me out|i want out',
  'dont text|do not text|dont message|do not message|dont send|do not send|dont contact|do not contact|i dont want|i do not want',
  'no quiero|ya no quiero|deja de|dejen de|deje de|no me envies|no me mandes|no me manden|no me envien|sacame|quitame|borrame|eliminame|dame de baja',
  'je ne veux plus|arrete de|arretez de|ne menvoyez plus|ne menvoie plus|retirez moi|retire moi|enlevez moi|sortez moi|desabonnez moi|desinscrivez moi',
  'nao quero|pare de|para de|parem de|me tire|me tira|me remova|remova me|nao me envie|nao me mande',
  'ich will keine|ich mochte keine|hor auf|hoer auf|horen sie auf|hort auf|nehmt mich|nehmen sie mich|entfernt mich|entfernen sie mich|schickt mir keine',
  'non voglio piu|smetti di|smettete di|smettila di|toglimi|rimuovimi|non mandatemi|non scrivetemi|non mandarmi|non scrivermi',
);

/**
 * Openings that mean "stop" only when what follows is about Loop's texts: "Stop it", "Leave this
 * group", "Plus de messages" opt out; "Stop by the house on Sunday", "End of the school year" are
 * news. Only at the start of a text.
 */
export const OPT_OUT_HEADS = list(
  'stop|quit|end|cancel|leave|no more',
  'parar|pare|no mas|salir',
  'arrete|arretez|arreter|plus de|quitter',
  'sair|chega',
  'stopp|keine|schluss',
  'basta|niente piu|esci|voglio uscire',
);

/**
 * Words about Loop's texts that a request may go on with. SIGNALS are the ones that say "your
 * texts, this group": a tail needs one, so "Stop now" is STOP (politeness) but "Stop the car" is news.
 */
export const OPT_OUT_SIGNALS = list(
  'texting|texts|text|messaging|messages|message|msgs|msg|sms|group|loop|loops|list|chat|thread|number|newsletter|newsletters|reminders|updates|subscription|notifications',
  'mensajes|mensaje|textos|grupo|lista|numero|boletin|escribirme|enviarme|mandarme|recordatorios',
  'messages|textos|groupe|liste|menvoyer|mecrire|texter|newsletter|rappels|abonnement',
  'mensagens|mensagem|grupo|lista|enviar|mandar|lembretes',
  'nachrichten|nachricht|gruppe|liste|nummer|newsletter|erinnerungen|schreiben|schicken|senden',
  'messaggi|messaggio|gruppo|lista|numero|scrivermi|mandarmi|inviarmi|promemoria',
);

/** The other words such a request may carry: who, from where, how much. */
export const OPT_OUT_FILLER = list(
  'me|my|us|our|from|of|off|out|this|the|these|that|those|your|all|any|more|anymore|ever|again|to|about|with|at|on|in|here|alone|sending|send|for|good|every|each|them|you|forever|everyone|a|an',
  'me|mi|de|del|el|la|los|las|este|esta|estos|estas|ese|esa|tu|su|todos|todo|mas|en|aqui|nunca|ya|por|a|al',
  'moi|me|de|du|des|ce|cet|cette|ces|le|la|les|vos|votre|tous|tout|plus|ici|dans|au|aux|ca',
  'me|de|do|da|dos|das|deste|desta|desse|dessa|disso|daqui|este|esta|esse|essa|o|a|os|as|mais|todos|todas|aqui|em|no|na',
  'mich|mir|uns|aus|der|die|das|den|dem|dieser|diese|dieses|von|vom|zu|mit|mehr|alle|hier|in|im|raus|ab|auf|damit|keine|kein|mir|euren|eure|ihre',
  'mi|me|da|dal|dalla|dai|di|del|della|questo|questa|questi|il|lo|la|i|gli|le|piu|tutti|tutto|qui|in|nel|nella',
);

/** Words put before a head that make it its opposite: "don't stop", "we can't stop laughing". */
export const NEGATIONS = list('dont|do not|never|cant|cannot|wont|not|no|nunca|nao|non|nicht|pas|jamais|nie|ne');

/** Politeness taken off the start of a text (and "I want to ...", "Can you ..."). */
export const POLITE_START = list(
  'please|pls|plz|kindly|hi|hello|hey|ok|okay|just|so|can you|could you|would you|can u|i want to|i would like to|id like to|i wish to',
  'por favor|porfa|hola|oi|ola|quiero|yo quiero|ya',
  'bonjour|salut|svp|stp|sil vous plait|sil te plait|merci de|je veux|je voudrais',
  'eu quero|quero|por favor',
  'bitte|hallo|ich will|ich mochte|ich moechte',
  'per favore|perfavore|ciao|voglio|vorrei',
);

/** Politeness and urgency taken off the end of a text. */
export const POLITE_END = list(
  'please|pls|plz|thanks|thank you|thx|ty|now|right now|immediately|asap|already|ok|okay',
  'por favor|gracias|ya|ahora|ahora mismo',
  'merci|svp|stp|sil vous plait|sil te plait|maintenant|tout de suite',
  'obrigado|obrigada|agora|ja',
  'bitte|danke|sofort|jetzt',
  'per favore|grazie|subito|ora|adesso',
);

/** Whole texts that ask for help, as letters only: Twilio's HELP and INFO, and each language's word. */
export const HELP_WORDS = list('help|info|ayuda|aide|ajuda|hilfe|aiuto|socorro').map((w) => w.toUpperCase());

/** Short asks for help, whole (after politeness is taken off either end). */
export const HELP_PHRASES = list(
  'help me|i need help|need help|what is this|what is loop|how does this work',
  'ayudame|ayuda me|necesito ayuda|que es esto',
  'aidez moi|aide moi|jai besoin daide|quest ce que cest',
  'me ajude|ajude me|me ajuda|preciso de ajuda|o que e isso',
  'hilf mir|helft mir|ich brauche hilfe|was ist das',
  'aiutami|aiutatemi|ho bisogno di aiuto|cose questo',
);
