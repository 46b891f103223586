import { useEffect } from "react";
import { Link } from "../../lib/Link";
import { useRouter } from "../../lib/router";
import "./not-found.css";

export default function NotFound() {
  const { path } = useRouter();
  useEffect(() => {
    console.error("404 Error: User attempted to access non-existent route:", path);
  }, [path]);

  return (
    <main className="not-found" lang="en">
      <div className="not-found__box">
        <h1 tabIndex={-1}>404</h1>
        <p>Oops! Page not found</p>
        <Link to="/" className="button button--primary">
          Return to Home
        </Link>
      </div>
    </main>
  );
}
