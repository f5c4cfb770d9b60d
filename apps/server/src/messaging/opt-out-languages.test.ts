import { describe, expect, it } from 'vitest';
import { readRequest, type Request } from './opt-out-words';

// The table of decision 0055, row for row. 47 CFR 64.1200(a)(10) (in force April 11, 2025):
// consent may be revoked "using any reasonable means", in any words. Twilio's and the carriers'
// words: https://help.twilio.com/articles/223134027,
// https://docs.aws.amazon.com/sms-voice/latest/userguide/keywords-required.html (ARRET, REMOVE).
const TABLE: [string, Request | null][] = [
  // Opt-out words of each language, with punctuation, case, accents and emoji variation stripped.
  ['PARAR', 'opt_out'],
  ['Alto', 'opt_out'],
  ['baja', 'opt_out'],
  ['ARRET', 'opt_out'],
  ['Arrêt !', 'opt_out'],
  ['ARRÊTEZ', 'opt_out'],
  ['Cancelar.', 'opt_out'],
  ['detener', 'opt_out'],
  ['ANNULER', 'opt_out'],
  ['désabonner', 'opt_out'],
  ['Sair', 'opt_out'],
  ['STOPP', 'opt_out'],
  ['Abmelden bitte', 'opt_out'],
  ['Basta!', 'opt_out'],
  ['Ya basta', 'opt_out'],
  ['Disiscrivimi', 'opt_out'],
  ['REMOVE', 'opt_out'],
  ['STOP por favor', 'opt_out'],
  ['Stop stop stop', 'opt_out'],
  ['🛑', 'opt_out'],
  ['🛑\uFE0F', 'opt_out'],
  ['🛑🛑', 'opt_out'],
  // Short texts that ask to stop.
  ['stop it', 'opt_out'],
  ['Stop texting me about this loop', 'opt_out'],
  ['Take me out of this group', 'opt_out'],
  ['Leave this group', 'opt_out'],
  ['No more texts please', 'opt_out'],
  ["I don't want these texts", 'opt_out'],
  ['Unsubscribe me from this list thanks', 'opt_out'],
  ['Deja de enviarme mensajes', 'opt_out'],
  ['Sácame de este grupo', 'opt_out'],
  ['No me mandes más mensajes', 'opt_out'],
  ['Ne m’envoyez plus de messages', 'opt_out'],
  ['Plus de messages svp', 'opt_out'],
  ['Retirez-moi de ce groupe', 'opt_out'],
  ['Pare de me enviar mensagens', 'opt_out'],
  ['Me tire desse grupo', 'opt_out'],
  ['Hör auf mir zu schreiben', 'opt_out'],
  ['Nehmt mich aus der Gruppe', 'opt_out'],
  ['Keine Nachrichten mehr', 'opt_out'],
  ['Non scrivetemi più', 'opt_out'],
  ['Toglimi dal gruppo', 'opt_out'],
  // Help, in each language.
  ['help me please', 'help'],
  ['Help!', 'help'],
  ['AYUDA', 'help'],
  ['aide', 'help'],
  ['Aidez-moi', 'help'],
  ['AJUDA', 'help'],
  ['Hilfe', 'help'],
  ['AIUTO', 'help'],
  ['Necesito ayuda', 'help'],
  // Unclear: held, never shared, asked "Reply STOP ... or send your news again".
  ['✋', 'unclear'],
  ['✋🏽', 'unclear'],
  ['⛔️', 'unclear'],
  ['Stop texting me about Smith Family', 'unclear'],
  ['Ugh, stop texting me', 'unclear'],
  ['Stop the texts about the party', 'unclear'],
  // News, as before: the words appear, no request is made.
  ["we can't stop laughing", null],
  ["don't stop", null],
  ["Don't stop texting the group your photos!", null],
  ['We stopped at the lake', null],
  ['Stop by the house on Sunday', null],
  ['Cancel the picnic, it is raining', null],
  ['please stop the rain', null],
  ['The end of the school year!', null],
  ['End of the group trip was fun', null],
  ["The kids won't stop texting the group", null],
  ['Leave me a piece of cake', null],
  ['Could you take me out to dinner', null],
  ['Para mi mamá, feliz cumpleaños', null],
  ['No quiero ir a la fiesta', null],
  ['Fine', null],
  ['Love it!!', null],
  ['Hello!', null],
  ['❤️', null],
  ['Ich habe keine Zeit heute', null],
  ['Basta pasta night was great', null],
];

describe('readRequest: the table of decision 0055', () => {
  it.each(TABLE)('%j is %s', (body, request) => {
    expect(readRequest(body)).toBe(request);
  });

  it('a text longer than a short request is news even when it starts with one', () => {
    expect(readRequest('Stop texting me about the trip, we already know it was the best week of the whole year')).toBeNull();
  });
});
