import { staffFetch } from "./api";

/**
 * Downloads a staff file (a CSV export) under the name the worker gives it
 * in Content-Disposition, else `fallbackName`.
 */
export async function downloadStaffFile(path: string, fallbackName: string): Promise<void> {
  const response = await staffFetch(path);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const blob = await response.blob();
  const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "")?.[1] ?? fallbackName;
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
