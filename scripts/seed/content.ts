/**
 * The demo's words: authors, categories, articles and the small generator that turns them into
 * simple HTML bodies. Pure data and pure functions (a seeded PRNG), so every seed writes the same text.
 */

export type CategoryKey = "coast" | "woodcraft" | "travel" | "ecology" | "photography";
export type AuthorKey = "maren" | "tomas" | "aiko" | "lea";
export type PlaceKey = "lofoten" | "crozon" | "monterey" | "cornwall" | "pilat" | "shetland" | "tasmania" | "hokkaido" | "oregon";

export interface AuthorSpec {
  key: AuthorKey;
  slug: string;
  name: string;
  bio: string;
}

export interface CategorySpec {
  key: CategoryKey;
  slug: string;
  title: string;
  fr: string;
}

export interface ArticleSpec {
  title: string;
  summary: string;
  categories: CategoryKey[];
  author: AuthorKey;
  place?: PlaceKey;
  fr?: { title: string; summary: string };
}

export const AUTHORS: readonly AuthorSpec[] = [
  { key: "maren", slug: "maren-holt", name: "Maren Holt", bio: "Maren writes about tides, weather and the working harbours of the North Atlantic." },
  { key: "tomas", slug: "tomas-reyes", name: "Tomás Reyes", bio: "Tomás builds furniture from wood the sea gives back, and teaches weekend joinery classes." },
  { key: "aiko", slug: "aiko-tanabe", name: "Aiko Tanabe", bio: "Aiko photographs coastlines in bad weather and writes about the patience it takes." },
  { key: "lea", slug: "lea-moreau", name: "Léa Moreau", bio: "Léa is a coastal ecologist who counts what washes up, and why." },
];

export const CATEGORIES: readonly CategorySpec[] = [
  { key: "coast", slug: "coast-and-sea", title: "Coast & Sea", fr: "Côte et mer" },
  { key: "woodcraft", slug: "woodcraft", title: "Woodcraft", fr: "Travail du bois" },
  { key: "travel", slug: "travel", title: "Travel", fr: "Voyage" },
  { key: "ecology", slug: "ecology", title: "Ecology", fr: "Écologie" },
  { key: "photography", slug: "photography", title: "Photography", fr: "Photographie" },
];

export const PLACES: Readonly<Record<PlaceKey, { lat: number; lon: number }>> = {
  lofoten: { lat: 68.2089, lon: 13.6131 },
  crozon: { lat: 48.2464, lon: -4.4897 },
  monterey: { lat: 36.6002, lon: -121.8947 },
  cornwall: { lat: 50.0657, lon: -5.7132 },
  pilat: { lat: 44.5892, lon: -1.2128 },
  shetland: { lat: 60.1546, lon: -1.1494 },
  tasmania: { lat: -42.1176, lon: 148.2925 },
  hokkaido: { lat: 43.0621, lon: 141.3544 },
  oregon: { lat: 45.8918, lon: -123.9615 },
};

/** The published articles of the demo site, oldest first. */
export const PUBLISHED_ARTICLES: readonly ArticleSpec[] = [
  { title: "Reading the Tide Tables", summary: "High water, low water and the numbers in between: a practical guide for walkers and beachcombers.", categories: ["coast"], author: "maren",
    fr: { title: "Lire les tables des marées", summary: "Pleine mer, basse mer et tout ce qui se passe entre les deux : un guide pratique pour promeneurs et glaneurs." } },
  { title: "A Field Guide to Driftwood Species", summary: "Pine, oak, cedar or eucalyptus? How to tell what the sea has brought you.", categories: ["woodcraft", "ecology"], author: "tomas",
    fr: { title: "Petit guide des bois flottés", summary: "Pin, chêne, cèdre ou eucalyptus ? Comment reconnaître ce que la mer vous rapporte." } },
  { title: "Winter Storms and the Shape of the Shore", summary: "One storm can move more sand than a whole summer. What changes, and what comes back.", categories: ["coast", "ecology"], author: "lea",
    fr: { title: "Tempêtes d'hiver et forme du rivage", summary: "Une seule tempête déplace plus de sable qu'un été entier. Ce qui change, et ce qui revient." } },
  { title: "Seven Days on the Lofoten Coast", summary: "A week of fishing villages, granite walls and light that never quite leaves.", categories: ["travel", "photography"], author: "aiko", place: "lofoten",
    fr: { title: "Sept jours sur la côte des Lofoten", summary: "Une semaine de villages de pêcheurs, de falaises de granit et d'une lumière qui ne s'en va jamais tout à fait." } },
  { title: "Carving a Spoon from a Beach Log", summary: "A knife, an axe and a dry afternoon are all you need for a first spoon.", categories: ["woodcraft"], author: "tomas",
    fr: { title: "Sculpter une cuillère dans une bûche de plage", summary: "Un couteau, une hachette et un après-midi sec suffisent pour une première cuillère." } },
  { title: "Why Salt Changes the Grain", summary: "Months in seawater leave wood lighter, harder to glue and strangely beautiful.", categories: ["woodcraft", "ecology"], author: "tomas" },
  { title: "Photographing Fog Without Losing the Light", summary: "Exposure, contrast and patience when the whole coast turns grey.", categories: ["photography"], author: "aiko",
    fr: { title: "Photographier le brouillard sans perdre la lumière", summary: "Exposition, contraste et patience quand toute la côte devient grise." } },
  { title: "The Quiet Economics of Harbour Towns", summary: "Who pays for the breakwater, and what happens when the fleet shrinks.", categories: ["coast", "travel"], author: "maren" },
  { title: "Beachcombing Etiquette: What to Leave Behind", summary: "Shells, nests and old rope: a short list of things the beach needs more than you do.", categories: ["ecology", "coast"], author: "lea" },
  { title: "Sea Glass, Explained", summary: "Where it comes from, why it frosts and why the red pieces are so rare.", categories: ["coast"], author: "maren",
    fr: { title: "Le verre de mer expliqué", summary: "D'où il vient, pourquoi il se dépolit et pourquoi les morceaux rouges sont si rares." } },
  { title: "A Weekend in Brittany's Crozon Peninsula", summary: "Cliffs, crêpes and coves on the far western edge of France.", categories: ["travel"], author: "maren", place: "crozon",
    fr: { title: "Un week-end sur la presqu'île de Crozon", summary: "Falaises, crêpes et criques à l'extrême ouest de la France." } },
  { title: "Restoring a Weathered Bench", summary: "From grey and splintered to smooth and oiled, in four evenings.", categories: ["woodcraft"], author: "tomas" },
  { title: "Long Exposures at Low Tide", summary: "Neutral density filters, wet feet and the art of the smooth sea.", categories: ["photography", "coast"], author: "aiko",
    fr: { title: "Poses longues à marée basse", summary: "Filtres gris neutres, pieds mouillés et l'art de la mer lisse." } },
  { title: "What the Wrack Line Tells Us", summary: "The strand line is a daily report on the ocean's health, if you know how to read it.", categories: ["ecology"], author: "lea" },
  { title: "Kelp Forests in Decline", summary: "Warmer water and hungry urchins are thinning the forests of the Pacific coast.", categories: ["ecology", "coast"], author: "lea", place: "monterey" },
  { title: "The Best Knots for Salvaged Timber", summary: "Hauling logs up a beach is easier with the right hitch.", categories: ["woodcraft"], author: "tomas" },
  { title: "Walking the Cornish Coast Path", summary: "Three days from Penzance to St Ives, with tin mines and seals for company.", categories: ["travel", "coast"], author: "maren", place: "cornwall",
    fr: { title: "Marcher sur le sentier côtier de Cornouailles", summary: "Trois jours de Penzance à St Ives, avec des mines d'étain et des phoques pour compagnie." } },
  { title: "Shooting Seabirds Handheld", summary: "Fast shutter speeds and a steady crouch beat a heavy tripod on the cliffs.", categories: ["photography", "ecology"], author: "aiko" },
  { title: "How Rivers Deliver Wood to the Sea", summary: "Most driftwood starts its journey far inland, in floods and fallen banks.", categories: ["ecology"], author: "lea" },
  { title: "Oiling, Waxing or Leaving It Bare", summary: "Three finishes for driftwood furniture, and when each one makes sense.", categories: ["woodcraft"], author: "tomas" },
  { title: "Notes from a Lighthouse Keeper's Logbook", summary: "Weather, ships and lamp oil: a century of entries from a northern light.", categories: ["coast", "travel"], author: "maren" },
  { title: "Finding Composition in Flotsam", summary: "A tangle of rope and a single buoy can make a picture. Here is how to see it.", categories: ["photography"], author: "aiko" },
  { title: "Ferry Crossings Worth Taking Slowly", summary: "Five routes where the journey is the reason to go.", categories: ["travel"], author: "maren" },
  { title: "The Dunes That Move Every Year", summary: "The tallest dune in Europe walks inland a few metres each year, swallowing pines as it goes.", categories: ["ecology", "coast"], author: "lea", place: "pilat",
    fr: { title: "Les dunes qui avancent chaque année", summary: "La plus haute dune d'Europe avance de quelques mètres par an et engloutit les pins sur son passage." } },
  { title: "Building a Driftwood Shelf in an Afternoon", summary: "Two brackets, one plank and a little patience with the level.", categories: ["woodcraft"], author: "tomas" },
  { title: "Black-and-White on Grey Days", summary: "When colour fails, texture and tone take over.", categories: ["photography"], author: "aiko" },
  { title: "Small Islands, Short Stays", summary: "Why two nights on a remote island can feel longer than a fortnight elsewhere.", categories: ["travel"], author: "maren", place: "shetland" },
  { title: "Microplastics in the Sand", summary: "A simple sieve survey and what our volunteers found on six beaches.", categories: ["ecology"], author: "lea" },
  { title: "Storm Watching Safely", summary: "The sea is most spectacular when it is most dangerous. Keep your distance and still see it all.", categories: ["coast"], author: "maren" },
  { title: "Sharpening Tools After Salt Air", summary: "Rust prevention and a quick honing routine for coastal workshops.", categories: ["woodcraft"], author: "tomas" },
  { title: "A Night Under the Milky Way on the Beach", summary: "Dark skies, red torches and a long wait for the galactic core to rise.", categories: ["photography", "travel"], author: "aiko", place: "tasmania" },
  { title: "Shipworms and the Life of a Log", summary: "The small mollusc that turns timber into lace, and why sailors feared it.", categories: ["ecology", "woodcraft"], author: "lea" },
  { title: "The Tasman Coast by Campervan", summary: "White sand, granite boulders and the slowest traffic jam: a wombat crossing.", categories: ["travel"], author: "maren", place: "tasmania" },
  { title: "Choosing a Lens for Coastal Landscapes", summary: "Wide, normal or long? Each tells a different story about the shore.", categories: ["photography"], author: "aiko" },
  { title: "Rock Pools as Classrooms", summary: "Anemones, crabs and blennies: a low-tide lesson plan for curious children.", categories: ["ecology", "coast"], author: "lea" },
  { title: "Joinery Without Straight Edges", summary: "Scribing, coping and trusting your eye when nothing is square.", categories: ["woodcraft"], author: "tomas" },
  { title: "Harbour Markets at Dawn", summary: "The catch comes in before sunrise, and so should you.", categories: ["travel", "photography"], author: "aiko" },
  { title: "Mapping Erosion with a Phone", summary: "A citizen-science method for measuring how fast a cliff retreats.", categories: ["coast", "ecology"], author: "lea" },
  { title: "Winter Light in Hokkaido", summary: "Drift ice, snow-covered shores and light so low it glows all day.", categories: ["photography", "travel"], author: "aiko", place: "hokkaido",
    fr: { title: "Lumière d'hiver à Hokkaido", summary: "Glaces dérivantes, rivages enneigés et une lumière si basse qu'elle rayonne toute la journée." } },
  { title: "Bleaching Wood the Slow Way", summary: "Sun, salt and time do what no chemical can match.", categories: ["woodcraft"], author: "tomas" },
  { title: "Spring Migration Along the Estuary", summary: "Godwits, knots and dunlins stop to refuel on their way north.", categories: ["ecology"], author: "lea" },
  { title: "Packing Light for Wet Coasts", summary: "Layers, dry bags and the one jacket worth paying for.", categories: ["travel"], author: "maren" },
  { title: "Reading Wave Sets for Beginners", summary: "Why waves arrive in groups, and how to time your walk along the rocks.", categories: ["coast"], author: "maren" },
  { title: "The Ethics of Drone Photography on Beaches", summary: "Nesting birds, resting seals and the people who came for quiet.", categories: ["photography", "ecology"], author: "aiko" },
  { title: "A Table Made from One Log", summary: "Slabbing, drying and flattening a single trunk into a dining table.", categories: ["woodcraft"], author: "tomas" },
  { title: "Oregon's Driftwood Forts", summary: "On some beaches, building a shelter from logs is a local tradition.", categories: ["travel", "coast"], author: "maren", place: "oregon" },
  { title: "Seaweed Foraging Basics", summary: "Which species to pick, how to cut them and how much to leave.", categories: ["ecology", "coast"], author: "lea" },
  { title: "Editing Seascapes in Five Steps", summary: "A restrained workflow that keeps the sea looking like the sea.", categories: ["photography"], author: "aiko" },
];

/** Articles created and never published. */
export const DRAFT_ARTICLES: readonly ArticleSpec[] = [
  { title: "Notes on Tidal Mills", summary: "Work in progress: the mills that ran on the sea.", categories: ["coast"], author: "maren" },
  { title: "Interview with a Boatbuilder", summary: "Transcript to be edited.", categories: ["woodcraft", "travel"], author: "tomas" },
  { title: "Coastal Birds of Winter", summary: "Species list still to be checked.", categories: ["ecology"], author: "lea" },
  { title: "Sanding Schedules Compared", summary: "Grit by grit, with photos to come.", categories: ["woodcraft"], author: "tomas" },
  { title: "Our Favourite Beach Cafés", summary: "Reader suggestions, not yet visited.", categories: ["travel"], author: "aiko" },
];

/** Articles published, then withdrawn. */
export const UNPUBLISHED_ARTICLES: readonly ArticleSpec[] = [
  { title: "Summer Events Calendar 2025", summary: "Festivals, regattas and beach clean-ups for the summer.", categories: ["travel"], author: "maren" },
  { title: "Surf Photography Gear Roundup", summary: "Housings, fins and lenses for shooting from the water.", categories: ["photography"], author: "aiko" },
  { title: "Exploring the Sea Caves", summary: "Withdrawn while access rules are checked.", categories: ["coast", "travel"], author: "lea" },
];

/** The one article left in Trash. */
export const TRASHED_ARTICLE: ArticleSpec = {
  title: "Test Post Please Delete",
  summary: "Created by mistake.",
  categories: ["coast"],
  author: "maren",
};

/** The other site's articles; the first two reuse demo slugs with different titles. */
export const OTHER_ARTICLES: readonly { slug: string; title: string; summary: string }[] = [
  { slug: "reading-the-tide-tables", title: "Tide Tables for Anglers", summary: "When the fish bite: tides from the angler's point of view." },
  { slug: "sea-glass-explained", title: "Sea Glass Jewellery: A Beginner's Kit", summary: "Drills, wire and findings for your first pendant." },
  { slug: "choosing-a-kayak-for-sheltered-water", title: "Choosing a Kayak for Sheltered Water", summary: "Sit-on-top or sit-in, and why length matters." },
  { slug: "five-bait-rigs-that-always-work", title: "Five Bait Rigs That Always Work", summary: "Simple rigs for shore fishing, tied in minutes." },
  { slug: "caring-for-wetsuits-between-sessions", title: "Caring for Wetsuits Between Sessions", summary: "Rinse, dry in the shade and never fold at the knees." },
];

export const HOMEPAGE = {
  headline: "Stories from the edge of the sea",
  intro: "Driftwood Journal collects field notes, workshop guides and travel stories from coastlines around the world.",
};

export const NOTES: readonly { title: string; body: string }[] = [
  { title: "Editorial calendar", body: "Autumn theme: storms. Winter theme: light. Ask Aiko for the Hokkaido pictures by the 10th." },
  { title: "Style reminders", body: "Use metric first, imperial in brackets. Species names in italics only on first mention." },
  { title: "Contributor payments", body: "Invoices go to accounts by the 25th; pay runs on the 1st." },
];

// ---------------------------------------------------------------------------------------------
// Bodies.
// ---------------------------------------------------------------------------------------------

/** mulberry32: a tiny deterministic PRNG, so a seed writes the same text every time. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
}

/** `count` distinct items in random order. */
function sample<T>(random: () => number, items: readonly T[], count: number): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < count && pool.length > 0) out.push(...pool.splice(Math.floor(random() * pool.length), 1));
  return out;
}

const EN_PARAGRAPHS: Record<CategoryKey, readonly string[]> = {
  coast: [
    "The shoreline is never finished. Twice a day the sea redraws it, and twice a day it leaves a slightly different line of weed, shell and sand behind.",
    "Harbour masters still keep paper charts beside their screens. When the power fails in a storm, <strong>the chart and the tide table are what remain</strong>.",
    "Spring tides come a day or two after the new and full moon. They rise higher and fall lower, which makes them the best time to explore rocks that are usually under water.",
    "Wind and pressure matter as much as the moon. A deep low with an onshore gale can lift the sea well above the predicted height, and that is when flooding happens.",
    "Walking a beach at first light, you notice how much has changed overnight: new channels, a bank of pebbles where there was sand, a log that was not there yesterday.",
    "Coastal paths are maintained by a patchwork of councils, trusts and volunteers. Most of them would rather you stayed on the path than trampled the cliff edge for a better view.",
  ],
  woodcraft: [
    "Driftwood is usually drier than it looks, but the outer layer can hide salt. Let a piece rest indoors for a few weeks before you cut it, and weigh it now and then: when the weight stops falling, it is ready.",
    "Salt crystals dull edges quickly. Keep a strop by the bench and use it often; a few passes every half hour saves a long session on the stones later.",
    "Sea-worn timber rarely has a straight face. Start by choosing one reference surface, plane it true, and measure everything else from there.",
    "For outdoor pieces, stainless or bronze fittings are worth the cost. Ordinary steel screws will bleed black stains into the grain within a season.",
    "A simple finish of raw linseed oil, applied thinly and buffed off after twenty minutes, keeps the silver colour while sealing the surface against grime.",
    "<em>Never burn driftwood indoors.</em> The salt it carries releases compounds you do not want in your lungs or your chimney.",
  ],
  travel: [
    "The best coastal trips are planned around tides rather than timetables. Check both before you book anything that cannot be moved.",
    "Small ferries often run on a reservation system that fills weeks ahead in summer. Off season, you can usually turn up, but services may stop entirely in bad weather.",
    "Local guesthouses know things no guidebook does: which cove is sheltered from the westerly, which café opens early, where the seals haul out.",
    "Bring cash. On small islands the card machine depends on a single mobile mast, and that mast depends on the weather.",
    "Travelling slowly along a coast means accepting that some days will be spent indoors watching rain sweep across the water. Those days are part of the trip too.",
    "Public buses along coastal roads are often the most scenic rides in the region, and they let you walk one way and ride back.",
  ],
  ecology: [
    "The strand line is a habitat in its own right. Sandhoppers, beetles and flies feed on rotting weed, and wading birds feed on them.",
    "Volunteer surveys have shown that most beach litter comes from land, not from ships. Rivers carry it down after heavy rain.",
    "Dunes are held together by a few tough grasses whose roots can reach several metres deep. Walking on them breaks the roots and lets the wind in.",
    "Warmer seas are changing which species turn up on the shore. Some southern visitors are now regular residents, and some northern ones are growing scarce.",
    "Seaweed is not a plant in the usual sense, but it does the work of one: it makes oxygen, shelters young fish and softens the force of waves.",
    "A single log can host an entire community as it drifts: barnacles, goose barnacles, small crabs and the larvae of fish that shelter under it.",
  ],
  photography: [
    "Coastal light changes faster than inland light, because cloud builds and breaks over the sea in minutes. Stay put; the shot you want often arrives ten minutes after you planned to leave.",
    "A polarising filter cuts glare from wet rocks and deepens the colour of shallow water, but it can also make skies look unnaturally dark with a wide lens.",
    "Salt spray settles on the front element without you noticing. Wipe with a damp microfibre cloth first, then a dry one, and never rub grit across the glass.",
    "Shooting into the sun at low tide turns wet sand into a mirror. Expose for the highlights and let the foreground fall into silhouette.",
    "A longer lens compresses headlands into layers, which often says more about a coastline than a sweeping wide view.",
    "<strong>Back up in the field.</strong> A card that survives rain, sand and a dropped bag deserves a second copy before you drive home.",
  ],
};

const EN_LISTS: readonly string[][] = [
  ["Check the tide times twice", "Tell someone where you are going", "Carry a head torch even in daylight"],
  ["A sharp knife", "A folding saw", "Sandpaper in three grits", "A rag and a little oil"],
  ["Waterproof jacket", "Spare socks in a dry bag", "A flask of something hot"],
  ["Note the date and place", "Photograph before you touch", "Leave living things where they are"],
  ["Lens cloth", "Spare battery", "Rain cover", "A second memory card"],
];

const EN_QUOTES: readonly string[] = [
  "The sea gives back everything, eventually. It just chooses its own time.",
  "You do not plan a coastal day; you negotiate it with the weather.",
  "Every piece of driftwood has already had a life before it reached you.",
  "Good light is rare. Good light on a good tide is a gift.",
];

const EN_HEADINGS: readonly string[] = ["Before you start", "What to look for", "In practice", "A few warnings", "Going further", "What we learned"];

const FR_PARAGRAPHS: Record<CategoryKey, readonly string[]> = {
  coast: [
    "Le rivage n'est jamais terminé. Deux fois par jour, la mer le redessine et laisse derrière elle une ligne un peu différente d'algues, de coquillages et de sable.",
    "Les grandes marées arrivent un jour ou deux après la nouvelle et la pleine lune. Elles montent plus haut et descendent plus bas : c'est le meilleur moment pour explorer les rochers.",
    "Le vent et la pression comptent autant que la lune. Une dépression creuse et un coup de vent de mer peuvent faire monter l'eau bien au-delà des prévisions.",
  ],
  woodcraft: [
    "Le bois flotté est souvent plus sec qu'il n'y paraît, mais sa surface cache du sel. Laissez-le reposer quelques semaines à l'intérieur avant de le couper.",
    "Le sel émousse vite les tranchants. Gardez un cuir près de l'établi et servez-vous-en souvent : quelques passes régulières évitent une longue séance d'affûtage.",
    "Une simple finition à l'huile de lin crue, appliquée en couche fine puis essuyée, conserve la couleur argentée tout en protégeant la surface.",
  ],
  travel: [
    "Les meilleurs voyages sur la côte se préparent selon les marées plutôt que selon les horaires. Vérifiez les deux avant de réserver quoi que ce soit.",
    "Les petites maisons d'hôtes savent ce qu'aucun guide ne dit : quelle crique est à l'abri du vent d'ouest, quel café ouvre tôt, où se reposent les phoques.",
    "Les bus qui longent la côte offrent souvent les plus beaux trajets de la région, et permettent de marcher à l'aller puis de rentrer assis.",
  ],
  ecology: [
    "La laisse de mer est un habitat à part entière. Puces de mer, coléoptères et mouches se nourrissent des algues, et les oiseaux se nourrissent d'eux.",
    "Les dunes tiennent grâce à quelques graminées robustes dont les racines descendent à plusieurs mètres. Marcher dessus les brise et laisse entrer le vent.",
    "Une seule bûche peut abriter toute une communauté pendant sa dérive : balanes, anatifes, petits crabes et jeunes poissons.",
  ],
  photography: [
    "Sur la côte, la lumière change plus vite qu'à l'intérieur des terres. Restez sur place : la photo que vous attendez arrive souvent dix minutes après l'heure prévue du départ.",
    "Les embruns se déposent sur la lentille frontale sans qu'on s'en aperçoive. Essuyez d'abord avec un chiffon humide, puis avec un chiffon sec.",
    "Un téléobjectif superpose les caps en plans successifs, ce qui en dit souvent plus sur une côte qu'une vue grand angle.",
  ],
};

const FR_HEADINGS: readonly string[] = ["Avant de commencer", "Ce qu'il faut observer", "En pratique", "Pour aller plus loin"];

function trimToLength(parts: string[], max: number): string[] {
  // Keep the opening paragraph; drop the latest other parts until the body fits.
  const kept = [...parts];
  while (kept.join("").length > max && kept.length > 2) kept.splice(kept.length - 2, 1);
  return kept;
}

/** An English article body: 300 to 2000 characters of simple HTML. */
export function englishBody(spec: ArticleSpec, index: number): string {
  const random = prng(index * 7919 + 17);
  const pools = spec.categories.flatMap((c) => EN_PARAGRAPHS[c]);
  const paragraphs = sample(random, pools, 2 + Math.floor(random() * 4));
  const parts: string[] = [`<p>${spec.summary} ${pick(random, paragraphs)}</p>`];
  parts.push(`<h2>${pick(random, EN_HEADINGS)}</h2>`);
  for (const p of paragraphs.slice(1)) parts.push(`<p>${p}</p>`);
  if (random() < 0.5) parts.push(`<ul>${pick(random, EN_LISTS).map((i) => `<li>${i}</li>`).join("")}</ul>`);
  if (random() < 0.35) parts.push(`<blockquote><p>${pick(random, EN_QUOTES)}</p></blockquote>`);
  if (random() < 0.3) parts.push(`<p>More in our <a href="/category/${spec.categories[0] ?? "coast"}">${spec.categories[0] ?? "coast"}</a> section.</p>`);
  return fit(trimToLength(parts, 2000), spec.summary);
}

/** A French article body for a translated article. */
export function frenchBody(spec: ArticleSpec, index: number): string {
  const random = prng(index * 104729 + 5);
  const pools = spec.categories.flatMap((c) => FR_PARAGRAPHS[c]);
  const paragraphs = sample(random, pools, 2 + Math.floor(random() * 3));
  const parts: string[] = [`<p>${spec.fr?.summary ?? ""}</p>`, `<h2>${pick(random, FR_HEADINGS)}</h2>`];
  for (const p of paragraphs) parts.push(`<p>${p}</p>`);
  return fit(trimToLength(parts, 2000), spec.fr?.summary ?? spec.summary);
}

/** Closes a body with a line about the demo, repeated until the body holds at least 300 characters. */
function fit(parts: string[], summary: string): string {
  let body = parts.join("");
  while (body.length < 300) body += `<p>${summary} Written for the Driftwood demo: the words are made up, the places are real.</p>`;
  return body;
}
