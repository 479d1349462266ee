import type { Game } from "@wallet/contracts/game";

/** The simulator's games: one server-driven crash game and two classic ones. */
export const simGames: Game[] = [
  {
    id: "crashGame",
    name: "Crash",
    category: "crash",
    gameUrl: "https://platform-sim.local/games/crash",
    demoAvailable: true,
    mobileSupport: true,
    freeSpinSupport: true,
    imageLink: "https://platform-sim.local/img/crash.png",
  },
  {
    id: "fruitSlot",
    name: "Fruit Slot",
    category: "slot",
    gameUrl: "https://platform-sim.local/games/fruit-slot",
    demoAvailable: false,
    mobileSupport: true,
    freeSpinSupport: true,
    imageLink: "https://platform-sim.local/img/fruit-slot.png",
  },
  {
    id: "blackjack",
    name: "Blackjack",
    category: "table",
    gameUrl: "https://platform-sim.local/games/blackjack",
    demoAvailable: true,
    mobileSupport: false,
    freeSpinSupport: false,
    imageLink: "https://platform-sim.local/img/blackjack.png",
  },
];

/** The catalog is scoped per operator: two operators may see different games. */
export function catalogFor(enabled: string[] | undefined): Game[] {
  return enabled ? simGames.filter((game) => enabled.includes(game.id)) : simGames;
}
