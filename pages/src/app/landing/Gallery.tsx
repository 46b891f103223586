import { MapPinIcon } from "../../components/icons";
import { development, type GalleryImage, gallery } from "../../config/agency";

/**
 * The widths an image is shown at: the whole column on a phone, half the
 * container (72rem, less its padding and the gap) from two columns up.
 */
const SIZES = "(min-width: 40rem) min(34rem, 46vw), calc(100vw - 2.5rem)";

/**
 * One image of the development: the modern formats first when the agency
 * gives them (AVIF, WebP), its own width and height so nothing moves when it
 * arrives, fetched only as it nears the screen and decoded off the main path.
 */
function Picture({ image }: { image: GalleryImage }) {
  const img = (
    <img
      src={image.src}
      srcSet={image.srcset}
      sizes={image.srcset || image.sources ? SIZES : undefined}
      width={image.width}
      height={image.height}
      alt={image.alt}
      loading="lazy"
      decoding="async"
    />
  );
  if (!image.sources?.length) return img;
  return (
    <picture>
      {image.sources.map((s) => (
        <source key={s.type} type={s.type} srcSet={s.srcset} sizes={SIZES} />
      ))}
      {img}
    </picture>
  );
}

/** The development in pictures (agency.json's `gallery`), and the way there in the phone's maps app. */
export function Gallery() {
  if (gallery.length === 0) return null;
  return (
    <section className="gallery" aria-labelledby="gallery-title">
      <div className="container">
        <p className="eyebrow eyebrow--dark">O lugar</p>
        <h2 id="gallery-title">O {development.name} em imagens</h2>
        <p className="gallery__intro">
          O {development.name} é um {development.kind.toLowerCase()} vizinho à {development.winery}, entre parreirais e
          o ar puro da serra catarinense. Quem está no grupo de pré-cadastro recebe em primeira mão plantas, valores e
          condições de lançamento.
        </p>
        <ul className="gallery__list">
          {gallery.map((image) => (
            <li key={image.src}>
              <figure className="gallery__item">
                <Picture image={image} />
                <figcaption>{image.caption}</figcaption>
              </figure>
            </li>
          ))}
        </ul>
        <p className="gallery__map">
          <MapPinIcon size={20} />
          <span>
            {development.location}.{" "}
            <a href={development.mapsUrl} target="_blank" rel="noopener noreferrer">
              Abrir no mapa
            </a>
          </span>
        </p>
      </div>
    </section>
  );
}
