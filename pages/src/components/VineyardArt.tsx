/** The hero's landscape: hills with vine rows and the winery at dusk. Pure SVG, a few hundred bytes gzipped. */
export function VineyardArt() {
  const rows = [0, 1, 2, 3, 4, 5];
  return (
    <svg
      className="vineyard-art"
      viewBox="0 0 1440 420"
      preserveAspectRatio="xMidYMax slice"
      aria-hidden="true"
      focusable="false"
    >
      <defs>
        <radialGradient id="sun" cx="50%" cy="50%" r="50%">
          <stop offset="0" stopColor="#f6d48b" />
          <stop offset="0.55" stopColor="#e3a857" stopOpacity="0.55" />
          <stop offset="1" stopColor="#e3a857" stopOpacity="0" />
        </radialGradient>
      </defs>
      <circle cx="780" cy="214" r="170" fill="url(#sun)" />
      <circle cx="780" cy="214" r="52" fill="#f3c977" />
      <path
        d="M0 250C180 190 360 222 520 204S860 146 1040 184 1320 168 1440 196V420H0Z"
        fill="#6d2c47"
        opacity="0.75"
      />
      <path d="M0 300C220 252 420 292 640 262S1040 222 1240 262 1400 272 1440 262V420H0Z" fill="#4a5e35" />
      <g fill="#2a1a1f">
        <path d="M626 240h52v26h-52z" />
        <path d="m618 242 34-24 34 24z" />
        <path d="M692 266c-4-22-2-44 5-58 7 14 9 36 5 58z" />
        <path d="M708 266c-3-16-1-32 4-42 5 10 7 26 4 42z" />
      </g>
      <g fill="none" stroke="#31452a" strokeWidth="5" strokeLinecap="round" strokeDasharray="1 13">
        {rows.map((i) => (
          <path
            key={i}
            d={`M${600 - i * 90} ${282 + i * 18}C${820 - i * 40} ${262 + i * 16} ${1020 + i * 20} ${250 + i * 16} ${1440} ${282 + i * 14}`}
          />
        ))}
      </g>
      <path d="M0 352C260 314 520 342 760 324S1180 296 1440 334V420H0Z" fill="#2f4327" />
      <g fill="none" stroke="#22321d" strokeWidth="6" strokeLinecap="round" strokeDasharray="1 16">
        {rows.slice(0, 4).map((i) => (
          <path
            key={i}
            d={`M0 ${372 + i * 14}C300 ${340 + i * 14} 560 ${362 + i * 12} 800 ${346 + i * 12}S1200 ${322 + i * 12} 1440 ${356 + i * 12}`}
          />
        ))}
      </g>
    </svg>
  );
}
