// VIKTORY battles as a seat heard of them (rules 12.0-12.6): followed from the events
// of its feed, and listed with their dice, losses and result.

import { key } from './board.js';
import { h } from './dom.js';

/** Dice that belong to a battle (not bombardment or the doomsday clock). */
const BATTLE_DICE = ['pre_battle', 'attack', 'defense', 'overwatch'];

/**
 * Follows event `e` into `battles` (a list this function appends to): a battle
 * `{hex, attacker, defender, rounds: [{round, dice}], lost, retreated, winner,
 * captured}` starts with `battle_started`, gathers its rounds' dice, the units lost
 * and retreats, and ends with `battle_ended` (a capture right after marks it taken).
 */
export function trackBattle(battles, e) {
  const last = battles[battles.length - 1];
  const open = last && last.winner === null ? last : null;
  if (e.type === 'battle_started') {
    battles.push({ hex: e.hex, attacker: e.attacker, defender: e.defender, rounds: [{ round: 0, dice: [] }], lost: [], retreated: 0, winner: null, captured: false });
  } else if (!open) {
    if (e.type === 'captured' && last && key(last.hex) === key(e.hex)) last.captured = true;
  } else if (e.type === 'round_started') {
    open.rounds.push({ round: e.round, dice: [] });
  } else if (e.type === 'die_rolled' && BATTLE_DICE.includes(e.purpose)) {
    open.rounds[open.rounds.length - 1].dice.push(e);
  } else if (e.type === 'unit_lost') {
    open.lost.push(e);
  } else if (e.type === 'retreated') {
    open.retreated += 1;
  } else if (e.type === 'battle_ended') {
    open.winner = e.winner;
  }
}

/** The dice of the round being fought in the last battle (none once it is over). */
export function currentDice(battles) {
  const last = battles[battles.length - 1];
  return last && last.winner === null ? last.rounds[last.rounds.length - 1].dice : [];
}

/** A region listing `battles`, newest first, each folded: where, who, the result; open,
 *  each round's dice by side, the units lost and retreats. `nameOf(seat)` names a seat. */
export function battleList(battles, nameOf, title) {
  const item = (b) => {
    const result = b.winner === null ? 'being fought' : b.captured ? `${nameOf(b.winner)} took the hex` : b.winner === b.attacker ? `${nameOf(b.attacker)} won` : `${nameOf(b.defender)} held`;
    const rounds = b.rounds.filter((r) => r.dice.length).map((r) => h('li', {},
      `${r.round ? `Round ${r.round}` : 'Pre-battle fire'}: `,
      ...[b.attacker, b.defender].flatMap((s) => {
        const rolled = r.dice.filter((d) => d.seat === s);
        return rolled.length ? [`${nameOf(s)} `, h('span', { class: 'dice' }, rolled.map((d) => h('span', { class: 'die' }, String(d.value)))), ' '] : [];
      })));
    const retreats = b.retreated ? `${b.retreated} retreated` : '';
    const lost = b.lost.length
      ? h('p', {}, 'Lost: ', b.lost.map((l) => `${nameOf(l.owner)}\u2019s ${l.kind} #${l.unit}`).join(', '), retreats ? `; ${retreats}` : '')
      : h('p', {}, retreats || 'No units lost');
    return h('li', {}, h('details', {},
      h('summary', {}, `${key(b.hex)}: ${nameOf(b.attacker)} attacked ${nameOf(b.defender)} \u2014 ${result}`),
      h('ul', { class: 'rounds' }, rounds), lost));
  };
  return h('div', { class: 'battles-box', role: 'region', 'aria-label': 'recent battles' },
    h('h3', {}, title),
    h('ul', { class: 'battle-list' }, battles.slice().reverse().map(item)));
}
